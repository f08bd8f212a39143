"""The compiled accelerators, built at install when a C compiler is at hand: the solver's
search and the vector environment's play.

Everything else about the package is in pyproject.toml. The extensions are optional: without a
compiler the install goes on, ``baloot.solver`` searches in pure Python and
``baloot.rl.VectorEnv`` follows every action in Python.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "baloot.solver._fast",
            ["src/baloot/solver/_fast.c"],
            depends=["src/baloot/solver/play_rules.h"],
            extra_compile_args=["-O3"],
            optional=True,
        ),
        Extension(
            "baloot.rl._tricks",
            ["src/baloot/rl/_tricks.c"],
            depends=["src/baloot/solver/play_rules.h"],
            extra_compile_args=["-O3"],
            optional=True,
        ),
    ]
)

"""The compiled accelerator of the solver, built at install when a C compiler is at hand.

Everything else about the package is in pyproject.toml. The extension is optional: without a
compiler the install goes on and ``baloot.solver`` searches in pure Python.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "baloot.solver._fast",
            ["src/baloot/solver/_fast.c"],
            extra_compile_args=["-O3"],
            optional=True,
        )
    ]
)

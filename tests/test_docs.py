"""The documentation stays a true map: every relative link of a Markdown page leads to a file
of the repository (and to a heading of it), the README leads to every page of ``docs/``,
``docs/layout.md`` names every package and module of the tree, and ``tests/README.md`` names
only modules that exist. The examples of the pages are run by pytest itself
(``--doctest-glob`` in ``pyproject.toml``).
"""

from __future__ import annotations

import re
from pathlib import Path

from test_public_api import LAYERS

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src" / "baloot"
DOCS = ROOT / "docs"
PAGES = (ROOT / "README.md", *sorted(DOCS.glob("*.md")), ROOT / "tests" / "README.md")

FENCE = re.compile(r"^```.*?^```", re.M | re.S)
CODE = re.compile(r"`[^`\n]*`")
LINK = re.compile(r"\]\(([^)\s]+)\)|(?:src|href)=\"([^\"]+)\"")
HEADING = re.compile(r"^#+ (.+)$", re.M)
OUTSIDE = ("http://", "https://", "mailto:")


def prose(text: str) -> str:
    """A page without its code: what is in a fence or between backticks links nowhere."""
    return CODE.sub("", FENCE.sub("", text))


def anchors(page: Path) -> set[str]:
    """The anchors of a page's headings, as GitHub makes them."""
    slugs: set[str] = set()
    for heading in HEADING.findall(FENCE.sub("", page.read_text(encoding="utf-8"))):
        slug = re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
        slugs.add(slug)
    return slugs


def link_problems(page: Path) -> list[str]:
    problems = []
    for match in LINK.finditer(prose(page.read_text(encoding="utf-8"))):
        target = match.group(1) or match.group(2)
        name = page.relative_to(ROOT)
        if target.startswith(OUTSIDE):
            problems.append(f"{name}: {target} leads outside the repository")
            continue
        path, _, anchor = target.partition("#")
        where = (page.parent / path).resolve() if path else page
        if not where.is_relative_to(ROOT):
            problems.append(f"{name}: {target} leads outside the repository")
        elif not where.exists():
            problems.append(f"{name}: {target} leads to no file")
        elif anchor and where.suffix == ".md" and anchor not in anchors(where):
            problems.append(f"{name}: {target} leads to no heading of {where.name}")
    return problems


def test_every_link_of_a_page_leads_to_a_file_of_the_repository() -> None:
    problems = [problem for page in PAGES for problem in link_problems(page)]
    assert not problems, "\n".join(problems)


def test_no_page_mentions_what_a_clone_does_not_have() -> None:
    assert [p.name for p in PAGES if "../shared" in p.read_text(encoding="utf-8")] == []


def test_the_readme_leads_to_every_page_of_the_docs() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    linked = set(re.findall(r"\]\(docs/([\w-]+\.md)\)", readme))
    assert sorted(p.name for p in DOCS.glob("*.md")) == sorted(linked)


def test_the_readme_keeps_its_two_commands() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "\n./scripts/serve     # set up, then serve tables in the browser" in readme
    assert "\n./scripts/test      # set up, then run every check" in readme


# ------------------------------------------------------------------------------- the layout


def layout_names() -> list[str]:
    """The paths ``docs/layout.md`` lists under ``src/baloot/``, in order: ``core/`` for a
    folder, ``core/hand.py`` for a module; the indentation says which folder a line is in."""
    text = (DOCS / "layout.md").read_text(encoding="utf-8")
    block = text.split("```\nsrc/baloot/\n", 1)[1].split("```", 1)[0]
    names: list[str] = []
    folders: list[str] = []
    for line in block.splitlines():
        depth = (len(line) - len(line.lstrip(" "))) // 2 - 1
        name = line.split()[0]
        folders = folders[:depth]
        names.append("".join(folders) + name)
        if name.endswith("/"):
            folders.append(name)
    return names


def tree_names() -> set[str]:
    """Every package (as ``bots/expert/``) and every module but ``__init__.py`` under
    ``src/baloot``, private ones and the C sources of compiled modules included."""
    modules = {
        path.relative_to(SRC).as_posix()
        for pattern in ("*.py", "*.c")
        for path in SRC.rglob(pattern)
        if path.name != "__init__.py" and "__pycache__" not in path.parts
    }
    packages = {
        path.parent.relative_to(SRC).as_posix() + "/"
        for path in SRC.rglob("__init__.py")
        if path.parent != SRC
    }
    return modules | packages


def test_the_layout_names_every_package_and_module() -> None:
    listed = layout_names()
    missing = sorted(tree_names() - set(listed))
    assert not missing, "docs/layout.md has no line for: " + ", ".join(missing)
    assert sorted(name for name in set(listed) if listed.count(name) > 1) == []


def test_the_layout_names_nothing_the_tree_lacks() -> None:
    gone = [name for name in layout_names() if not (SRC / name).exists()]
    assert not gone, "docs/layout.md names what src/baloot does not hold: " + ", ".join(gone)


def test_the_layout_lists_the_layers_from_the_bottom() -> None:
    folders = [name[:-1] for name in layout_names() if name.count("/") == 1 and name[-1] == "/"]
    assert folders == list(LAYERS)


# ----------------------------------------------------------------------------- the test map


def names_something(dotted: str) -> bool:
    """Whether ``server.messages.table_view`` (a name under ``src/baloot``) is a package, a
    module, or a name a module defines: read from the files, nothing imported."""
    path, parts = SRC, dotted.split(".")
    while parts and path.is_dir():
        part = parts.pop(0)
        if (path / part).is_dir():
            path = path / part
        elif (path / f"{part}.py").exists():
            path = path / f"{part}.py"
        else:
            path, parts = path / "__init__.py", [part, *parts]
    if not parts:
        return True
    source = path.read_text(encoding="utf-8") if path.exists() else ""
    defined = rf"^\s*(?:class |def |async def )?{parts[0]}\b|^from .* import .*\b{parts[0]}\b"
    return re.search(defined, source, re.M) is not None


def test_the_test_map_names_only_modules_that_exist() -> None:
    text = (ROOT / "tests" / "README.md").read_text(encoding="utf-8")
    named = set(re.findall(rf"`((?:{'|'.join(LAYERS)})(?:\.\w+)*)", text))
    gone = sorted(name for name in named if not names_something(name))
    assert not gone, "tests/README.md names what src/baloot does not hold: " + ", ".join(gone)

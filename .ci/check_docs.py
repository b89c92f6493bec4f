#!/usr/bin/env python3
"""Checks the API reference's inputs, for .ci/docs (python3 standard library only).

    check_docs.py catalogs PACKAGE_JSON        the library modules that have no catalog (Sources/<M>/<M>.docc)
    check_docs.py symbols MODULE GRAPH_DIR     the public symbols declared in Sources/ without a doc comment
    check_docs.py links CATALOG                the relative links of a catalog's pages that lead nowhere

Each prints one line per problem and exits 1 if there is any. PACKAGE_JSON is `swift package dump-package`.
"""
import json
import pathlib
import re
import sys
from urllib.parse import unquote, urlparse

ROOT = pathlib.Path(__file__).resolve().parent.parent
SOURCES = ROOT / "Sources"


def library_modules(package_json):
    """The targets of the package's library products, in product order."""
    package = json.loads(pathlib.Path(package_json).read_text())
    modules = []
    for product in package["products"]:
        if "library" in product["type"]:
            modules += [target for target in product["targets"] if target not in modules]
    return modules


def check_catalogs(package_json):
    problems = []
    for module in library_modules(package_json):
        catalog = SOURCES / module / f"{module}.docc"
        if not (catalog / f"{module}.md").is_file():
            problems.append(f"{module}: no catalog with a landing page at {catalog.relative_to(ROOT)}/{module}.md")
    return problems


def path_of(uri):
    return pathlib.Path(unquote(urlparse(uri).path)).resolve()


def check_symbols(module, graph_dir):
    """A symbol needs its own doc comment when the package's sources declare it (it has a location under
    Sources/). Compiler-synthesised members (a raw-value enum's `init(rawValue:)`) have no location; a doc
    comment inherited from a protocol requirement or another module is not the declaration's own."""
    graphs = sorted(pathlib.Path(graph_dir).glob(f"{module}*.symbols.json"))
    if not graphs:
        return [f"{module}: no symbol graph in {graph_dir}"]
    problems = []
    for graph in graphs:
        for symbol in json.loads(graph.read_text())["symbols"]:
            location = symbol.get("location")
            if location is None:
                continue
            source = path_of(location["uri"])
            if SOURCES not in source.parents:
                continue
            comment = symbol.get("docComment")
            own = (comment is not None and "uri" in comment and path_of(comment["uri"]) == source
                   and any(line["text"].strip() for line in comment["lines"]))
            if not own:
                line = location["position"]["line"] + 1
                name = ".".join(symbol["pathComponents"])
                kind = symbol["kind"]["displayName"].lower()
                problems.append(f"{source.relative_to(ROOT)}:{line}: public {kind} {name} has no doc comment")
    return sorted(set(problems))


LINK = re.compile(r"\]\(([^)\s]+)\)")


def check_links(catalog):
    problems = []
    for page in sorted(pathlib.Path(catalog).rglob("*.md")):
        for number, line in enumerate(page.read_text().splitlines(), start=1):
            for target in LINK.findall(line):
                if urlparse(target).scheme or target.startswith("#"):
                    continue
                file = (page.parent / unquote(target.split("#", 1)[0])).resolve()
                if not file.exists():
                    problems.append(f"{page.relative_to(ROOT)}:{number}: the link to {target} leads nowhere")
    return problems


def main(argv):
    commands = {"catalogs": (check_catalogs, 1), "symbols": (check_symbols, 2), "links": (check_links, 1)}
    if len(argv) < 2 or argv[1] not in commands or len(argv) - 2 != commands[argv[1]][1]:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    check, _ = commands[argv[1]]
    problems = check(*argv[2:])
    for problem in problems:
        print(problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

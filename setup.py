"""The one part of the build that pyproject.toml cannot say: the solver's compiled search core
(games/_searchcore.c), built by ``pip install`` where a C compiler and Python's headers are.
It is optional: without them the install goes on, and the pure-Python search runs
(games/solver.py, ``CORE``)."""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "games._searchcore", ["games/_searchcore.c"], optional=True, extra_compile_args=["-O3", "-funroll-loops"]
        )
    ]
)

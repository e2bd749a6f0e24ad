"""Check that a field audit runs the pinned release of the package it audits.

Every Python field adapter calls ``require(distribution, version)`` before it
imports the package, so a stale or missing install in field/.cache/ is a
clear error on stderr (framecheck reports it with the stderr tail), never an
audit of some other version.
"""

import sys
from importlib.metadata import PackageNotFoundError, version


def require(distribution, pinned):
    """Exit with a message unless ``distribution`` is installed at ``pinned``."""
    try:
        found = version(distribution)
    except PackageNotFoundError:
        found = None
    if found != pinned:
        sys.stderr.write(
            f"field audit needs {distribution}=={pinned} but found {found or 'nothing'} "
            f"under {sys.executable}; run field/run.sh --install-only\n"
        )
        sys.exit(3)

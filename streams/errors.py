"""The errors a user can fix. The CLI prints these in one line (exit 2); anything else is a
bug and shows its traceback. `--debug` or CONTRAFLOW_DEBUG=1 shows the traceback of both."""

from __future__ import annotations


class UserError(Exception):
    """Bad input, a missing model or extra, an unreachable broker: fixed by the user, not the code."""


class BadInput(UserError, ValueError):
    """A file, option or setting given by the user that cannot be used; the message says where."""

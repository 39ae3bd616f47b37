"""The exceptions of the package: one per exit status of the command line, so that a caller can
tell bad input from a failed run, with the command line's one-line message."""


class NarwhalError(Exception):
    """A run or sweep that did not give its result; str() is the command line's one line.

    code: the command line's exit status (1 the run failed or was killed, 2 bad input, 3 the
    result differs from the reference); result: the run's result where it has one (status 3).
    """

    def __init__(self, message, code=1, result=None):
        super().__init__(message)
        self.code = code
        self.result = result


class NarwhalInputError(NarwhalError, ValueError):
    """Bad input (exit status 2): an unknown option, a bad value, an impossible configuration."""


class NarwhalRunError(NarwhalError, RuntimeError):
    """The run failed (exit status 1), or its process was killed (a crash: a signal)."""


class NarwhalUnverifiedError(NarwhalError):
    """The run finished but its result differs from the reference (exit status 3); .result
    holds the run's result all the same."""


def error_for(code, message, result=None):
    """The exception of exit status `code`."""
    kind = {2: NarwhalInputError, 3: NarwhalUnverifiedError}.get(code, NarwhalRunError)
    return kind(message, code, result)

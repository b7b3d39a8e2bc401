"""Writing the command line's output files: whole or not at all.

A file ``stops`` writes (``stops schema -O``, ``stops simulate --plot``) is written to a
temporary file beside it and renamed over it only when complete, so an error, a full disk or
Ctrl-C never leaves a half-written file behind. Only a regular file (or a new one) is written:
a directory, a pipe or a device named as the output is refused before anything is opened, so
a FIFO cannot make the command hang.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from pathlib import Path

from stops.engine.errors import StopsError


def write_atomic(path: str | os.PathLike[str], data: bytes) -> Path:
    """Write ``data`` to ``path`` whole (see the module's docstring); a StopsError names the
    file and the reason."""
    target = Path(path)
    try:
        st = os.stat(target)
    except FileNotFoundError:
        st = None
    except OSError as e:
        raise StopsError(f"cannot write {target}: {e.strerror or e}") from None
    if st is not None and not stat.S_ISREG(st.st_mode):
        raise StopsError(f"cannot write {target}: not a regular file (a directory, pipe or "
                         "device is refused)")
    folder = target.parent
    if not folder.is_dir():
        raise StopsError(f"cannot write {target}: no such directory {folder}")
    tmp: str | None = None
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        if st is not None:
            with contextlib.suppress(OSError):
                os.chmod(tmp, stat.S_IMODE(st.st_mode))
        else:
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, target)
        tmp = None
    except OSError as e:
        raise StopsError(f"cannot write {target}: {e.strerror or e}") from None
    finally:
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
    return target

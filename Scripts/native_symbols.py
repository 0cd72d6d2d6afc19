"""Where functions and data of a shared library loaded into this process are (Linux, x86-64):
the library's symbol table read with `nm` (local symbols included, which the dynamic loader does
not export) and the address /proc/self/maps gives its first segment. Used to reach code of the
reference runtime and of MediaPipe's wheel that no interface exports (Scripts/reference_isa_cap.py,
Scripts/goldens/mediapipe_kernels.py); needs `nm` (binutils).
"""
import os
import subprocess


def symbols(library, names):
    """{name: (offset, size)} for the `names` found in `library`'s symbol table (`nm -S`; size 0
    when nm gives none). Raises OSError or subprocess.CalledProcessError when nm cannot run."""
    listing = subprocess.run(["nm", "-S", library], capture_output=True, text=True, check=True).stdout
    found = {}
    for line in listing.splitlines():
        fields = line.split()
        if fields and fields[-1] in names:
            found[fields[-1]] = (int(fields[0], 16), int(fields[1], 16) if len(fields) == 4 else 0)
    return found


def load_address(library):
    """Where this process mapped `library`'s first segment (file offset 0), or None."""
    real = os.path.realpath(library)
    with open("/proc/self/maps") as maps:
        for line in maps:
            fields = line.split()
            if len(fields) >= 6 and int(fields[2], 16) == 0 and os.path.realpath(fields[5]) == real:
                return int(fields[0].split("-")[0], 16)
    return None

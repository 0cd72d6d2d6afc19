"""Caps the vector instruction sets the reference runtime (ai-edge-litert) uses, so that `bench
--compare` measures it at the level our generated kernels run at (`LITEVISION_ISA`): an AVX2-only
CPU emulated on an AVX-512 one, for both engines, on the same core.

XNNPACK and ruy choose their kernels from the cpuinfo library's feature record (`struct
cpuinfo_x86_isa`, one bool per feature), filled once by `cpuinfo_initialize()`. The runtime's
shared library keeps both symbols in its symbol table; `cap(level)` runs the initialization
itself, before any interpreter exists, then clears the record's bytes of the features above
`level`. Every later kernel choice (XNNPACK's at its first delegate, ruy's at its first GEMM)
sees the capped record.

The record is not a stable interface, so the cap checks the layout first: the bytes of 15
features must equal what /proc/cpuinfo says of this CPU, else nothing is written and `cap`
raises `CapError` (the comparison then reports the reason instead of uncapped numbers).
Used by Scripts/reference-bench.py (`--cap-isa`); needs `nm` (binutils) and Linux.
"""
import ctypes
import os
import subprocess

from native_symbols import load_address, symbols as library_symbols

# Byte offsets in the x86-64 `struct cpuinfo_x86_isa`, with the /proc/cpuinfo flag each mirrors;
# together they identify the layout (features this CPU has and features it lacks).
LAYOUT = {16: "pni", 17: "ssse3", 18: "sse4_1", 19: "sse4_2", 22: "avx", 23: "avx_vnni", 24: "fma", 27: "f16c",
          28: "avx2", 29: "avx512f", 32: "avx512cd", 33: "avx512dq", 34: "avx512bw", 35: "avx512vl",
          41: "avx512_vnni"}
# Offset 29 (avx512f) up to 56 holds the AVX-512, AVX10, AMX and AVX-VNNI-INT8/16 features.
WIDE = list(range(29, 57))
# The bytes cleared per level (LITEVISION_ISA's names): what the level's kernels do not use.
CLEARED = {
    "sse2": list(range(16, 57)),          # SSE3 and up: the x86-64 baseline
    "avx2": [23] + WIDE,                  # no AVX-VNNI, no AVX-512
    "avxvnni": WIDE,
    "avx512": list(range(41, 57)),        # AVX-512 F/BW/DQ/VL/VBMI, no AVX512-VNNI and later
    "avx512vnni": [],
}


class CapError(Exception):
    """Why the reference runtime could not be capped."""


def _cpu_flags():
    with open("/proc/cpuinfo") as info:
        for line in info:
            if line.startswith("flags"):
                return set(line.split(":", 1)[1].split())
    raise CapError("/proc/cpuinfo lists no flags")


def cap(level):
    """Caps every copy of cpuinfo loaded from the runtime's package at `level`; returns the
    libraries capped. Call after importing the runtime and before creating an interpreter."""
    if level not in CLEARED:
        raise CapError(f"unknown level {level} (one of {', '.join(CLEARED)})")
    import ai_edge_litert
    folder = os.path.dirname(ai_edge_litert.__file__)
    flags = _cpu_flags()
    capped = []
    for name in sorted(os.listdir(folder)):
        library = os.path.join(folder, name)
        if not name.endswith(".so"):
            continue
        base = load_address(library)
        if base is None:
            continue
        try:
            symbols = library_symbols(library, {"cpuinfo_initialize", "cpuinfo_isa"})
        except (OSError, subprocess.CalledProcessError) as error:
            raise CapError(f"cannot list the symbols of {library} with nm: {error}")
        if len(symbols) < 2:
            continue
        (initialize, _), (record, size) = symbols["cpuinfo_initialize"], symbols["cpuinfo_isa"]
        if size <= max(WIDE):
            raise CapError(f"{name}: cpuinfo_isa is {size} bytes, too short for the known layout")
        if not ctypes.CFUNCTYPE(ctypes.c_bool)(base + initialize)():
            raise CapError(f"{name}: cpuinfo_initialize failed")
        features = (ctypes.c_uint8 * size).from_address(base + record)
        mismatched = [flag for offset, flag in LAYOUT.items() if features[offset] != (flag in flags)]
        if mismatched:
            raise CapError(f"{name}: cpuinfo_isa's layout is not the known one (bytes of {', '.join(mismatched)} "
                           "disagree with /proc/cpuinfo); not capped")
        for offset in CLEARED[level]:
            features[offset] = 0
        capped.append(name)
    if not capped:
        raise CapError(f"no loaded library of {folder} has the cpuinfo symbols")
    return capped

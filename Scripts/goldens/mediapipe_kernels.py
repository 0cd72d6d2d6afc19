"""MediaPipe's own CPU kernels for its custom operators, registered into the reference runtime.

The reference runtime (ai-edge-litert) cannot run models that use MediaPipe's custom operators:
`Convolution2DTransposeBias` (selfie segmentation) and the attention mesh's
`Landmarks2TransformMatrix`, `TransformTensorBilinear` and `TransformLandmarks`
(face_landmark_with_attention). MediaPipe registers its kernels for them in its own runtime; the
mediapipe 0.10.14 wheel (PyPI) carries those kernels, compiled, in
`mediapipe/python/_framework_bindings*.so`. This module makes them the oracle for our kernels:

1. the wheel is downloaded once (nothing is installed) and the library, with the graphics
   libraries it links, is extracted into a cache directory;
2. the library is loaded with ctypes; its symbol table (`nm`, Scripts/native_symbols.py: the
   functions are local, not exported) gives each `Register…()` function's address, which returns the kernel's
   `TfLiteRegistration`;
3. each registration is checked before use: its `prepare` and `invoke` fields must be set and its
   `custom_name` and `version` fields must read as the operator's name and version (or be unset,
   as `Convolution2DTransposeBias` leaves them), which also checks the struct layout assumed;
4. `custom_op_registerer` adds them to the reference interpreter's op resolver through
   `tflite::MutableOpResolver::AddCustom`, found the same way in ai-edge-litert's library.

Used only to generate fixtures (Scripts/goldens/ops_mediapipe.py, models.py); the library never
depends on Python or MediaPipe. Layout assumed (TfLiteRegistration of TensorFlow Lite 2.x):
init, free, prepare, invoke, profiling_string (5 pointers), builtin_code (int32), custom_name
(pointer at byte 48), version (int32 at byte 56), then three pointer-sized fields: 96 bytes.
"""
import ctypes
import functools
import glob
import os
import subprocess
import sys
import zipfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import native_symbols  # noqa: E402  (Scripts/)

WHEEL = "mediapipe==0.10.14"
CACHE = os.path.join(os.path.expanduser("~"), ".cache", "litevision", "mediapipe-0.10.14")

# Custom operator name → (registration function's mangled name, version the models use).
KERNELS = {
    "Convolution2DTransposeBias": ("_ZN9mediapipe17tflite_operations34RegisterConvolution2DTransposeBiasEv", 1),
    "Landmarks2TransformMatrix": ("_ZN9mediapipe17tflite_operations36RegisterLandmarksToTransformMatrixV2Ev", 2),
    "TransformTensorBilinear": ("_ZN9mediapipe17tflite_operations33RegisterTransformTensorBilinearV2Ev", 2),
    "TransformLandmarks": ("_ZN9mediapipe17tflite_operations28RegisterTransformLandmarksV2Ev", 2),
}
ADD_CUSTOM = "_ZN6tflite17MutableOpResolver9AddCustomEPKcPK18TfLiteRegistrationi"
REGISTRATION_BYTES = 96


def uses_custom_kernels(model_bytes):
    """Whether the model names one of the operators above (their names appear verbatim)."""
    return any(name.encode() in model_bytes for name in KERNELS)


def _library():
    """Path of the wheel's `_framework_bindings` library, fetched into CACHE when absent."""
    found = glob.glob(os.path.join(CACHE, "mediapipe", "python", "_framework_bindings*.so"))
    if found:
        return found[0]
    os.makedirs(CACHE, exist_ok=True)
    subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--only-binary=:all:",
                    "--python-version", "3.11", "--platform", "manylinux_2_17_x86_64", "--implementation", "cp",
                    "-d", CACHE, WHEEL], check=True)
    wheel = glob.glob(os.path.join(CACHE, "mediapipe-*.whl"))[0]
    with zipfile.ZipFile(wheel) as z:
        for entry in z.namelist():
            if entry.startswith("mediapipe.libs/") or (entry.startswith("mediapipe/python/_framework_bindings")
                                                     and entry.endswith(".so")):
                z.extract(entry, CACHE)
    os.remove(wheel)
    return glob.glob(os.path.join(CACHE, "mediapipe", "python", "_framework_bindings*.so"))[0]


def _symbols(path, names):
    """Offsets of `names` in the library's symbol table; every one must be there."""
    found = {name: offset for name, (offset, _) in native_symbols.symbols(path, names).items()}
    missing = set(names) - set(found)
    if missing:
        raise RuntimeError(f"{os.path.basename(path)}: symbols not found: {sorted(missing)}")
    return found


def _load_base(path):
    base = native_symbols.load_address(path)
    if base is None:
        raise RuntimeError(f"{path} is not mapped")
    return base


@functools.cache
def custom_op_registerer():
    """A function for `InterpreterWithCustomOps(custom_op_registerers=[...])` that adds
    MediaPipe's kernels for the operators in KERNELS to the interpreter's op resolver. Made once
    per process (loading the libraries and reading their symbol tables takes a while); every
    interpreter then registers the same kernels."""
    import ai_edge_litert
    mediapipe_path = _library()
    litert_path = os.path.join(os.path.dirname(ai_edge_litert.__file__), "libpywrap_litert_common.so")
    ctypes.CDLL(mediapipe_path)
    ctypes.CDLL(litert_path)
    mediapipe_symbols = _symbols(mediapipe_path, {symbol for symbol, _ in KERNELS.values()})
    add_custom_offset = _symbols(litert_path, {ADD_CUSTOM})[ADD_CUSTOM]
    mediapipe_base, litert_base = _load_base(mediapipe_path), _load_base(litert_path)

    registrations = {}
    for name, (symbol, version) in KERNELS.items():
        register = ctypes.CFUNCTYPE(ctypes.c_void_p)(mediapipe_base + mediapipe_symbols[symbol])
        address = register()
        prepare, invoke = (ctypes.c_void_p.from_address(address + offset).value for offset in (16, 24))
        custom_name = ctypes.c_char_p.from_address(address + 48).value
        found_version = ctypes.c_int32.from_address(address + 56).value
        # Convolution2DTransposeBias leaves name and version unset (AddCustom sets them).
        if not prepare or not invoke or custom_name not in (name.encode(), None) or found_version not in (version, 0):
            raise RuntimeError(f"{symbol}: registration reads as {custom_name!r} version {found_version} "
                               f"(prepare {prepare}, invoke {invoke}), expected {name!r} version {version}: "
                               "unknown TfLiteRegistration layout")
        copy = ctypes.create_string_buffer(256)  # zero beyond the 96 bytes MediaPipe filled
        ctypes.memmove(copy, address, REGISTRATION_BYTES)
        registrations[name] = (copy, ctypes.c_char_p(name.encode()), version)
    add_custom = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p, ctypes.c_int)(
        litert_base + add_custom_offset)

    def register(resolver):
        for copy, name, version in registrations.values():
            add_custom(resolver, name, ctypes.addressof(copy), version)
    return register

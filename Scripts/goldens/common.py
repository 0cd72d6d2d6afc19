"""Shared helpers for golden-fixture generators.

Every generator module in this folder (ops_<family>.py, models.py) writes cases in one
format that the Swift golden runner (Tests/TFLiteInterpreterTests/GoldenOpTests.swift)
reads:

    Tests/Fixtures/ops/<family>/<case>/model.tflite
    Tests/Fixtures/ops/<family>/<case>/input_<k>.npy     one per model input, in order
    Tests/Fixtures/ops/<family>/<case>/output_<k>.npy    one per model output, in order
    Tests/Fixtures/ops/<family>/<case>/case.json         {"tolerance": "exact"|"float"|"one_step",
                                                          "description": "..."}

Goldens come from the reference runtime's reference kernels
(ai-edge-litert, OpResolverType.BUILTIN_REF). Inputs are drawn from a seeded RNG so that
regeneration is deterministic. Only used to generate test data; the library never
depends on Python.
"""
import json
import os
import shutil

import numpy as np

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
OPS_DIR = os.path.join(ROOT, "Tests", "Fixtures", "ops")


def reference_interpreter(model_bytes, num_threads=1, resolver="BUILTIN_REF"):
    """An ai-edge-litert interpreter that uses the reference kernels only (or, with
    resolver="BUILTIN", the default kernels: the oracle where the two disagree, e.g. int16
    LOGISTIC / TANH at power-of-two input scales). MediaPipe's custom operators run on
    MediaPipe's own kernels (mediapipe_kernels.py)."""
    from ai_edge_litert import interpreter as litert
    import mediapipe_kernels
    registerers = [mediapipe_kernels.custom_op_registerer()] if mediapipe_kernels.uses_custom_kernels(model_bytes) else []
    interp = litert.InterpreterWithCustomOps(model_content=model_bytes, num_threads=num_threads,
                                             custom_op_registerers=registerers,
                                             experimental_op_resolver_type=getattr(litert.OpResolverType, resolver))
    interp.allocate_tensors()
    return interp


def run_reference(model_bytes, inputs, resolver="BUILTIN_REF"):
    """Runs the model on `inputs` (list of arrays, model input order) and returns the outputs."""
    interp = reference_interpreter(model_bytes, resolver=resolver)
    details = interp.get_input_details()
    assert len(details) == len(inputs), f"model has {len(details)} inputs, got {len(inputs)}"
    for d, x in zip(details, inputs):
        if list(d["shape"]) != list(x.shape):
            interp.resize_tensor_input(d["index"], list(x.shape))
    interp.allocate_tensors()
    for d, x in zip(interp.get_input_details(), inputs):
        assert d["dtype"] == x.dtype, f"input {d['name']}: model wants {d['dtype']}, got {x.dtype}"
        interp.set_tensor(d["index"], x)
    interp.invoke()
    return [interp.get_tensor(d["index"]).copy() for d in interp.get_output_details()]


def random_input(rng, shape, dtype, low=-1.0, high=1.0):
    """A seeded random array of `dtype` covering the full range for integer types."""
    dtype = np.dtype(dtype)
    if dtype.kind == "f":
        return rng.uniform(low, high, size=shape).astype(dtype)
    if dtype == np.bool_:
        return rng.integers(0, 2, size=shape).astype(np.bool_)
    info = np.iinfo(dtype)
    lo, hi = max(info.min, -(1 << 20)), min(info.max, 1 << 20)
    return rng.integers(lo, hi, size=shape, endpoint=True).astype(dtype)


def inputs_for(model_bytes, rng, low=-1.0, high=1.0):
    """Random inputs matching the model's input details."""
    interp = reference_interpreter(model_bytes)
    return [random_input(rng, tuple(d["shape"]), d["dtype"], low, high)
            for d in interp.get_input_details()]


def save_case(family, name, model_bytes, inputs, tolerance="float", description="", resolver="BUILTIN_REF"):
    """Runs the reference on `inputs` and writes the case directory. Returns the outputs.
    `resolver`: the reference runtime's op resolver ("BUILTIN_REF" or "BUILTIN")."""
    outputs = run_reference(model_bytes, inputs, resolver=resolver)
    d = os.path.join(OPS_DIR, family, name)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    with open(os.path.join(d, "model.tflite"), "wb") as f:
        f.write(model_bytes)
    for k, x in enumerate(inputs):
        np.save(os.path.join(d, f"input_{k}.npy"), x)
    for k, y in enumerate(outputs):
        np.save(os.path.join(d, f"output_{k}.npy"), y)
    with open(os.path.join(d, "case.json"), "w") as f:
        json.dump({"tolerance": tolerance, "description": description}, f, indent=1)
    return outputs


def clear_family(family):
    """Removes a family's old cases before regeneration."""
    shutil.rmtree(os.path.join(OPS_DIR, family), ignore_errors=True)


def convert_float(fn, input_shapes, input_dtypes=None):
    """Converts a tf.function of fixed-shape inputs to a float .tflite (builtin ops only)."""
    import tensorflow as tf
    input_dtypes = input_dtypes or [tf.float32] * len(input_shapes)
    specs = [tf.TensorSpec(s, d) for s, d in zip(input_shapes, input_dtypes)]
    concrete = tf.function(fn).get_concrete_function(*specs)
    conv = tf.lite.TFLiteConverter.from_concrete_functions([concrete], tf.function(fn))
    conv.target_spec.supported_ops = [tf.lite.OpsSet.TFLITE_BUILTINS]
    return conv.convert()


def convert_int8(fn, input_shapes, rng, io_type="int8", low=-1.0, high=1.0, samples=32):
    """Full-integer conversion (int8 activations, per-channel int8 weights).
    io_type: "int8", "uint8" or "float32" for the model's inputs/outputs."""
    import tensorflow as tf
    specs = [tf.TensorSpec(s, tf.float32) for s in input_shapes]
    concrete = tf.function(fn).get_concrete_function(*specs)
    conv = tf.lite.TFLiteConverter.from_concrete_functions([concrete], tf.function(fn))
    conv.optimizations = [tf.lite.Optimize.DEFAULT]

    def representative():
        for _ in range(samples):
            yield [rng.uniform(low, high, size=s).astype(np.float32) for s in input_shapes]

    conv.representative_dataset = representative
    conv.target_spec.supported_ops = [tf.lite.OpsSet.TFLITE_BUILTINS_INT8]
    if io_type != "float32":
        conv.inference_input_type = getattr(tf, io_type)
        conv.inference_output_type = getattr(tf, io_type)
    return conv.convert()


def convert_dynamic_range(fn, input_shapes):
    """Hybrid conversion: int8 weights, float activations."""
    import tensorflow as tf
    specs = [tf.TensorSpec(s, tf.float32) for s in input_shapes]
    concrete = tf.function(fn).get_concrete_function(*specs)
    conv = tf.lite.TFLiteConverter.from_concrete_functions([concrete], tf.function(fn))
    conv.optimizations = [tf.lite.Optimize.DEFAULT]
    return conv.convert()

"""Small models for the interpreter's API tests (Tests/Fixtures/interpreter/).

    two_inputs.tflite       x[1,4], y[1,4] -> (x + y, x * y); signature serving_default
    dynamic_chain.tflite    x[?,8] -> ((x + c1) * c2) + x   (resizable batch)
    reshape_chain.tflite    x[1,8] -> reshape(x + c1, [2,4]) @ w3   (RESHAPE shares memory)
    shape_dependent.tflite  x[?,2,4] -> reshape(x, [shape(x)[0], 8]) * c2   (SHAPE evaluated at prepare)
    float16_weights.tflite  x[1,8] -> x * w with w stored as float16 (DEQUANTIZE on a constant)

Each model comes with input_<k>.npy / output_<k>.npy from the reference kernels, in the
golden case format of common.py (one directory per model).
Run: PYTHON=... Scripts/generate-goldens.sh interpreter_models
"""
import os

import numpy as np
import tensorflow as tf

import common

OUT = os.path.join(common.ROOT, "Tests", "Fixtures", "interpreter")


def convert(fn, specs, float16=False):
    concrete = tf.function(fn).get_concrete_function(*specs)
    conv = tf.lite.TFLiteConverter.from_concrete_functions([concrete], tf.function(fn))
    conv.target_spec.supported_ops = [tf.lite.OpsSet.TFLITE_BUILTINS]
    if float16:
        conv.optimizations = [tf.lite.Optimize.DEFAULT]
        conv.target_spec.supported_types = [tf.float16]
    return conv.convert()


def convert_with_signature():
    """x + y and x * y behind a signature `add_mul` with outputs `sum` and `product`."""
    import tempfile

    class AddMul(tf.Module):
        @tf.function(input_signature=[tf.TensorSpec([1, 4], tf.float32, name="x"),
                                      tf.TensorSpec([1, 4], tf.float32, name="y")])
        def add_mul(self, x, y):
            return {"sum": x + y, "product": x * y}

    module = AddMul()
    with tempfile.TemporaryDirectory() as d:
        tf.saved_model.save(module, d, signatures={"add_mul": module.add_mul})
        conv = tf.lite.TFLiteConverter.from_saved_model(d, signature_keys=["add_mul"])
        conv.target_spec.supported_ops = [tf.lite.OpsSet.TFLITE_BUILTINS]
        return conv.convert()


def save(name, model, inputs):
    d = os.path.join(OUT, name)
    os.makedirs(d, exist_ok=True)
    outputs = common.run_reference(model, inputs)
    with open(os.path.join(d, "model.tflite"), "wb") as f:
        f.write(model)
    for k, x in enumerate(inputs):
        np.save(os.path.join(d, f"input_{k}.npy"), x)
    for k, y in enumerate(outputs):
        np.save(os.path.join(d, f"output_{k}.npy"), y)


def main():
    rng = np.random.default_rng(7)
    f32 = tf.float32

    save("two_inputs", convert_with_signature(),
         [rng.uniform(-1, 1, (1, 4)).astype(np.float32), rng.uniform(-1, 1, (1, 4)).astype(np.float32)])

    c1 = tf.constant(rng.uniform(-1, 1, 8).astype(np.float32))
    c2 = tf.constant(rng.uniform(-1, 1, 8).astype(np.float32))

    def chain(x):
        return (x + c1) * c2 + x
    save("dynamic_chain", convert(chain, [tf.TensorSpec([None, 8], f32, name="x")]),
         [rng.uniform(-1, 1, (1, 8)).astype(np.float32)])

    w3 = tf.constant(rng.uniform(-1, 1, (4, 3)).astype(np.float32))

    def reshape_chain(x):
        return tf.matmul(tf.reshape(x + c1, [2, 4]), w3)
    save("reshape_chain", convert(reshape_chain, [tf.TensorSpec([1, 8], f32, name="x")]),
         [rng.uniform(-1, 1, (1, 8)).astype(np.float32)])

    def shape_dependent(x):
        batch = tf.shape(x)[0]
        return tf.reshape(x, tf.stack([batch, 8])) * c2
    save("shape_dependent", convert(shape_dependent, [tf.TensorSpec([None, 2, 4], f32, name="x")]),
         [rng.uniform(-1, 1, (1, 2, 4)).astype(np.float32)])

    w = tf.constant(rng.uniform(-1, 1, (64, 8)).astype(np.float32))

    def weights(x):
        return tf.matmul(x, w, transpose_b=True)
    save("float16_weights", convert(weights, [tf.TensorSpec([1, 8], f32, name="x")], float16=True),
         [rng.uniform(-1, 1, (1, 8)).astype(np.float32)])


if __name__ == "__main__":
    main()

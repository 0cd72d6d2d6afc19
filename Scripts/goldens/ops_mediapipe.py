"""Golden cases for MediaPipe's custom operators: the attention face mesh's
Landmarks2TransformMatrix, TransformTensorBilinear and TransformLandmarks (version 2), and selfie
segmentation's Convolution2DTransposeBias.

The oracle is MediaPipe's own CPU kernels from the mediapipe 0.10.14 wheel, registered into the
reference runtime (mediapipe_kernels.py). Each case is a one-operator model; the options of the
Landmarks2TransformMatrix cases are the real model's (Models/mediapipe/
face_landmark_with_attention.tflite, from Scripts/fetch-mediapipe-models.sh: lips with 80 subset
indices, left eye with 71 — an odd count, whose last index MediaPipe repeats) or varied (a target
rotation, unequal scales, a non-square crop). Inputs:
- landmarks: the model's own 468-point mesh on the astronaut photo, that mesh turned upside down
  (the rotation near ±π), seeded random points, integer points (ties in the bounding box) and all
  points equal (an empty box);
- feature maps: seeded random, the model's `[1, 48, 48, 32]` into `[1, 16, 16, 32]` by the photo
  mesh's lips matrix (landmarks scaled as the model scales them, × 0.25), and `[1, 24, 24, 8]`
  (small fixtures) by the other meshes' matrices, a half-outside crop (edges read as 0), an
  integer-aligned crop (fractions 0, the right and lower neighbours past the edge) and a turned,
  enlarged crop; into 16 × 16 × 8, 12 × 20 × 8 and 16 × 16 × 3 (fewer channels than the input);
- landmark transforms of 2-D `[1, 80, 2]` and 3-D `[1, 468, 3]` landmarks by those matrices;
- transposed convolutions with seeded random weights and bias (constants, as in the model): the
  selfie model's 2 × 2 stride-2 SAME form, and 3 × 3 stride 2 SAME and VALID (overlapping windows:
  the order in which products reach each output shows in the last bits).
Bit-exact ("exact"). Run: Scripts/generate-goldens.sh ops_mediapipe
"""
import os

import numpy as np
from flatbuffers import flexbuffers

import ai_edge_litert.schema_py_generated as schema
from common import ROOT, clear_family, run_reference, save_case
from ops_detection import build, tensor

FAMILY = "mediapipe"
MODEL = os.path.join(ROOT, "Models", "mediapipe", "face_landmark_with_attention.tflite")
SEED = 20261128


def real_options():
    """The custom options of the model's first two Landmarks2TransformMatrix nodes (lips, left eye)."""
    model = schema.ModelT.InitFromObj(schema.Model.GetRootAsModel(open(MODEL, "rb").read(), 0))
    codes = [i for i, c in enumerate(model.operatorCodes) if c.customCode == b"Landmarks2TransformMatrix"]
    nodes = [op for op in model.subgraphs[0].operators if op.opcodeIndex in codes]
    return [bytes(np.asarray(op.customOptions, dtype=np.uint8)) for op in nodes[:2]]


def matrix_options(subset, left, right, target, height, width, scale_x, scale_y):
    """Options as MediaPipe's converter writes them: `subset_idxs` a typed vector (MediaPipe reads
    an untyped one as empty), floats as 32-bit."""
    builder = flexbuffers.Builder()
    with builder.Map():
        builder.Key("subset_idxs")
        builder.TypedVectorFromElements(subset)
        for key, value in [("left_rotation_idx", left), ("right_rotation_idx", right),
                           ("output_height", height), ("output_width", width)]:
            builder.Key(key)
            builder.Int(value)
        for key, value in [("target_rotation_radians", target), ("scale_x", scale_x), ("scale_y", scale_y)]:
            builder.Key(key)
            builder.Float(value, byte_width=4)
    return bytes(builder.Finish())


def matrix_model(options, count=468):
    tensors = [tensor("landmarks", [1, count, 3], np.float32), tensor("matrix", [1, 4, 4], np.float32)]
    return build(tensors, {}, [0], [1], [0], [1], custom="Landmarks2TransformMatrix", options=options, version=2)


def bilinear_model(input_shape, output_shape):
    height, width = output_shape[1:3]
    tensors = [tensor("features", input_shape, np.float32), tensor("matrix", [1, 4, 4], np.float32),
               tensor("crop", output_shape, np.float32)]
    options = flexbuffers.Dumps({"output_height": height, "output_width": width})
    return build(tensors, {}, [0, 1], [2], [0, 1], [2], custom="TransformTensorBilinear", options=options, version=2)


def landmarks_model(count, dimensions):
    tensors = [tensor("landmarks", [1, count, dimensions], np.float32), tensor("matrix", [1, 4, 4], np.float32),
               tensor("mapped", [1, count, dimensions], np.float32)]
    return build(tensors, {}, [0, 1], [2], [0, 1], [2], custom="TransformLandmarks", options=b"", version=2)


def transpose_conv_bias_model(input_shape, weights, bias, padding, stride):
    """Convolution2DTransposeBias; options a raw TfLiteTransposeConvParams (padding 1 SAME, 2 VALID)."""
    n, h, w, _ = input_shape
    kh, kw = weights.shape[1:3]
    if padding == 1:
        out_h, out_w = stride * (h - 1) + kh - max(0, kh - (h - 1) % stride - 1), stride * (w - 1) + kw - max(0, kw - (w - 1) % stride - 1)
    else:
        out_h, out_w = stride * (h - 1) + kh, stride * (w - 1) + kw
    tensors = [tensor("input", input_shape, np.float32), tensor("weights", weights.shape, np.float32),
               tensor("bias", bias.shape, np.float32), tensor("output", [n, out_h, out_w, weights.shape[0]], np.float32)]
    options = np.array([padding, stride, stride], np.int32).tobytes()
    return build(tensors, {1: weights, 2: bias}, [0], [3], [0, 1, 2], [3], custom="Convolution2DTransposeBias",
                 options=options)


def photo_mesh():
    """The model's 468 landmarks (x, y, z in 192-pixel crop units) on the astronaut photo."""
    from models import photo_image
    _, pixels = photo_image("astronaut", 192, 192, 3)
    image = (pixels.astype(np.float32) / np.float32(255)).reshape(1, 192, 192, 3)
    return run_reference(open(MODEL, "rb").read(), [image])[0].reshape(1, 468, 3)


def main():
    clear_family(FAMILY)
    rng = np.random.default_rng(SEED)
    lips, left_eye = real_options()
    varied = matrix_options([61, 146, 91, 181, 84, 17, 314, 405, 321], left=33, right=263, target=0.5,
                            height=12, width=24, scale_x=2.0, scale_y=1.25)
    mesh = photo_mesh()
    centre = np.float32(96)
    meshes = {
        "photo": mesh,
        "upside_down": np.concatenate([(2 * centre - mesh[:, :, :2]).astype(np.float32), mesh[:, :, 2:]], axis=2),
        "random": rng.uniform(0, 192, (1, 468, 3)).astype(np.float32),
        "integer": rng.integers(0, 12, (1, 468, 3)).astype(np.float32),
        "all_equal": np.full((1, 468, 3), 37.5, np.float32),
    }
    matrices = {}
    for name, points in meshes.items():
        for label, options in [("lips", lips), ("left_eye", left_eye), ("varied", varied)]:
            outputs = save_case(FAMILY, f"landmarks_to_matrix_{label}_{name}", matrix_model(options), [points],
                                tolerance="exact",
                                description=f"Landmarks2TransformMatrix ({label} options) of {name} landmarks")
            matrices[f"{label}_{name}"] = outputs[0]
        # The model scales its 192-pixel landmarks to its 48-pixel feature map before cropping;
        # the smaller cases below crop a 24-pixel map.
        for size in [48, 24]:
            scaled = (points * np.float32(size / 192)).astype(np.float32)
            matrices[f"lips_{size}_{name}"] = run_reference(matrix_model(lips), [scaled])[0]

    def affine(a, b, tx, c, d, ty):
        return np.array([[[a, b, 0, tx], [c, d, 0, ty], [0, 0, 1, 0], [0, 0, 0, 1]]], np.float32)
    angle = np.float32(0.7)
    # The model's own shapes once (a 48 × 48 × 32 map into 16 × 16 × 32); the other crops sample a
    # 24 × 24 × 8 map, to keep the fixtures small.
    features = rng.uniform(-4, 4, (1, 48, 48, 32)).astype(np.float32)
    save_case(FAMILY, "transform_tensor_bilinear_photo_lips", bilinear_model([1, 48, 48, 32], [1, 16, 16, 32]),
              [features, matrices["lips_48_photo"]], tolerance="exact",
              description="TransformTensorBilinear as in the model: the photo mesh's lips crop, 48 × 48 × 32 into 16 × 16 × 32")
    crops = {
        "upside_down_lips": matrices["lips_24_upside_down"],
        "random_lips": matrices["lips_24_random"],
        "half_outside": affine(0.75, 0, 15, 0, 0.75, -4),
        "integer_aligned": affine(1, 0, 16, 0, 1, 0),
        "turned_enlarged": affine(1.5 * np.cos(angle), -1.5 * np.sin(angle), 10, 1.5 * np.sin(angle),
                                  1.5 * np.cos(angle), -2.5),
    }
    small = rng.uniform(-4, 4, (1, 24, 24, 8)).astype(np.float32)
    for name, matrix in crops.items():
        save_case(FAMILY, f"transform_tensor_bilinear_{name}", bilinear_model([1, 24, 24, 8], [1, 16, 16, 8]),
                  [small, matrix], tolerance="exact", description=f"TransformTensorBilinear, {name} crop into 16 × 16 × 8")
    save_case(FAMILY, "transform_tensor_bilinear_non_square", bilinear_model([1, 24, 24, 8], [1, 12, 20, 8]),
              [small, crops["turned_enlarged"]], tolerance="exact", description="TransformTensorBilinear into 12 × 20 × 8")
    save_case(FAMILY, "transform_tensor_bilinear_fewer_channels", bilinear_model([1, 24, 24, 8], [1, 16, 16, 3]),
              [small, crops["random_lips"]], tolerance="exact",
              description="TransformTensorBilinear into 16 × 16 × 3 from 8 channels")

    points_2d = rng.uniform(-2, 18, (1, 80, 2)).astype(np.float32)
    for name in ["photo", "upside_down", "random", "all_equal"]:
        save_case(FAMILY, f"transform_landmarks_2d_{name}", landmarks_model(80, 2),
                  [points_2d, matrices[f"lips_{name}"]], tolerance="exact",
                  description=f"TransformLandmarks of 2-D points by the lips matrix of {name} landmarks")
    save_case(FAMILY, "transform_landmarks_3d_varied", landmarks_model(468, 3),
              [meshes["random"], matrices["varied_photo"]], tolerance="exact",
              description="TransformLandmarks of 3-D points (z copied) by the varied options' matrix")

    for name, input_shape, weight_shape, padding in [("selfie_2x2_same", [1, 16, 16, 16], [1, 2, 2, 16], 1),
                                                     ("3x3_same", [1, 9, 10, 16], [4, 3, 3, 16], 1),
                                                     ("3x3_valid", [1, 9, 10, 16], [4, 3, 3, 16], 2)]:
        weights = rng.uniform(-1, 1, weight_shape).astype(np.float32)
        bias = rng.uniform(-1, 1, weight_shape[:1]).astype(np.float32)
        save_case(FAMILY, f"transpose_conv_bias_{name}", transpose_conv_bias_model(input_shape, weights, bias, padding, 2),
                  [rng.uniform(-1, 1, input_shape).astype(np.float32)], tolerance="exact",
                  description=f"Convolution2DTransposeBias {name}, stride 2")


if __name__ == "__main__":
    main()

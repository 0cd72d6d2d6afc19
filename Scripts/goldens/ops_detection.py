"""Golden cases for the detection family: TFLite_Detection_PostProcess (custom op) and
NON_MAX_SUPPRESSION_V4 / V5.

Each case is a one-operator model built here with the schema's object API (custom options as
a FlexBuffer map), run by the reference kernels (common.run_reference). Cases:
- post-process on random float and uint8 inputs: fast (class-agnostic) NMS with one and with
  several classes per box, regular (per-class) NMS, with and without a background column,
  extra keypoint values in the box encodings, and scores on a coarse grid (many exact ties);
- post-process cut out of the real SSD models (ssd_fish_uint8, ssd_pets_uint8 in
  ../shared/models): the op's inputs are captured from a reference run of the whole model on
  sample photos, the anchors and options are copied; plus a regular-NMS variant of ssd_pets,
  and for ssd_fish (whose own activations never vary) synthetic activations in its quantization
  (`ssd_fish_synthetic_case`; alone: `python3 -m ops_detection ssd_fish_synthetic`);
- NMS V4 / V5 (soft, sigma) on random float boxes with ties and degenerate boxes.
Run: Scripts/generate-goldens.sh ops_detection
"""
import os

import flatbuffers
import numpy as np
from flatbuffers import flexbuffers

import ai_edge_litert.schema_py_generated as schema
from common import OPS_DIR, ROOT, clear_family, save_case, reference_interpreter

FAMILY = "detection"
SHARED_MODELS = os.path.join(ROOT, "..", "shared", "models")
IMAGES = os.path.join(ROOT, "Models", "images")

TYPES = {np.dtype(np.float32): schema.TensorType.FLOAT32, np.dtype(np.uint8): schema.TensorType.UINT8,
         np.dtype(np.int32): schema.TensorType.INT32}


def tensor(name, shape, dtype, buffer=0, quant=None):
    t = schema.TensorT()
    t.name = name
    t.shape = list(shape)
    t.type = TYPES[np.dtype(dtype)]
    t.buffer = buffer
    if quant is not None:
        q = schema.QuantizationParametersT()
        q.scale = [float(quant[0])]
        q.zeroPoint = [int(quant[1])]
        t.quantization = q
    return t


def build(tensors, constants, inputs, outputs, op_inputs, op_outputs, builtin=None, custom=None, options=None,
          version=1):
    """A one-operator model. constants: {tensor index: np.ndarray} stored in buffers."""
    model = schema.ModelT()
    model.version = 3
    code = schema.OperatorCodeT()
    if custom is not None:
        code.builtinCode = schema.BuiltinOperator.CUSTOM
        code.deprecatedBuiltinCode = schema.BuiltinOperator.CUSTOM
        code.customCode = custom
    else:
        code.builtinCode = builtin
        code.deprecatedBuiltinCode = min(builtin, 127)
    code.version = version
    model.operatorCodes = [code]
    empty = schema.BufferT()
    model.buffers = [empty]
    for index, data in constants.items():
        b = schema.BufferT()
        b.data = np.frombuffer(np.ascontiguousarray(data).tobytes(), dtype=np.uint8)
        model.buffers.append(b)
        tensors[index].buffer = len(model.buffers) - 1
    op = schema.OperatorT()
    op.opcodeIndex = 0
    op.inputs = op_inputs
    op.outputs = op_outputs
    if custom is not None:
        op.customOptions = np.frombuffer(options, dtype=np.uint8)
        op.customOptionsFormat = schema.CustomOptionsFormat.FLEXBUFFERS
    sg = schema.SubGraphT()
    sg.tensors = tensors
    sg.inputs = inputs
    sg.outputs = outputs
    sg.operators = [op]
    model.subgraphs = [sg]
    builder = flatbuffers.Builder(1024)
    builder.Finish(model.Pack(builder), file_identifier=b"TFL3")
    return bytes(builder.Output())


def postprocess_model(n, columns, encoding_length, anchors, options, box_quant=None, score_quant=None, anchor_quant=None):
    """Post-process model: inputs box encodings and scores, constant anchors, 4 float outputs."""
    box_type = np.uint8 if box_quant else np.float32
    score_type = np.uint8 if score_quant else np.float32
    tensors = [
        tensor("box_encodings", [1, n, encoding_length], box_type, quant=box_quant),
        tensor("class_predictions", [1, n, columns], score_type, quant=score_quant),
        tensor("anchors", [n, 4], anchors.dtype, quant=anchor_quant),
        tensor("detection_boxes", [], np.float32),
        tensor("detection_classes", [], np.float32),
        tensor("detection_scores", [], np.float32),
        tensor("num_detections", [], np.float32),
    ]
    return build(tensors, {2: anchors}, [0, 1], [3, 4, 5, 6], [0, 1, 2], [3, 4, 5, 6],
                 custom="TFLite_Detection_PostProcess", options=flexbuffers.Dumps(options))


def random_anchors(rng, n):
    """SSD-like anchors (y, x, h, w), normalized, on a grid with several aspect ratios."""
    side = int(np.ceil(np.sqrt(n)))
    k = np.arange(n)
    y = (k // side + 0.5) / side
    x = (k % side + 0.5) / side
    h = rng.choice([0.1, 0.2, 0.3], size=n) * rng.uniform(0.8, 1.2, size=n)
    w = rng.choice([0.1, 0.2, 0.3], size=n) * rng.uniform(0.8, 1.2, size=n)
    return np.stack([y, x, h, w], axis=1).astype(np.float32)


def options(num_classes, max_detections=10, max_classes=1, per_class=None, score=0.3, iou=0.5, regular=False):
    o = {"max_detections": max_detections, "max_classes_per_detection": max_classes,
         "nms_score_threshold": score, "nms_iou_threshold": iou, "num_classes": num_classes,
         "y_scale": 10.0, "x_scale": 10.0, "h_scale": 5.0, "w_scale": 5.0, "use_regular_nms": regular}
    if per_class is not None:
        o["detections_per_class"] = per_class
    return o


def quantize(x, scale, zero_point):
    return np.clip(np.round(x / scale) + zero_point, 0, 255).astype(np.uint8)


def synthetic_cases(rng):
    n = 96
    anchors = random_anchors(rng, n)

    def float_inputs(columns, encoding_length=4, grid=None):
        enc = rng.normal(0, 1.0, size=(1, n, encoding_length)).astype(np.float32)
        scores = rng.uniform(0, 1, size=(1, n, columns)).astype(np.float32)
        if grid:
            scores = (np.round(scores * grid) / grid).astype(np.float32)
        return enc, scores

    cases = [
        ("postprocess_fast_float", 6, 4, options(5), None),
        ("postprocess_fast_float_3_classes_per_box", 7, 4, options(6, max_detections=8, max_classes=3, score=0.2), None),
        ("postprocess_fast_float_no_background", 5, 4, options(5, score=0.4, iou=0.3), None),
        ("postprocess_fast_float_keypoints", 3, 8, options(2, max_detections=12, iou=0.4), None),
        ("postprocess_fast_float_score_ties", 4, 4, options(3, max_detections=20, max_classes=2, score=0.1, iou=0.45), 8),
        ("postprocess_fast_float_many_classes_ties", 13, 4, options(12, max_detections=15, max_classes=4, score=0.1,
                                                                   iou=0.5), 4),
        ("postprocess_regular_float", 6, 4, options(5, max_detections=15, per_class=4, regular=True), None),
        ("postprocess_regular_float_default_per_class", 4, 4, options(3, max_detections=25, score=0.5, regular=True), None),
        ("postprocess_regular_float_score_ties", 5, 4, options(4, max_detections=30, per_class=10, score=0.1, iou=0.4,
                                                              regular=True), 6),
        ("postprocess_regular_float_single_detection", 3, 4, options(2, max_detections=1, per_class=3, regular=True), 4),
    ]
    for name, columns, enc_len, opts, grid in cases:
        if "default_per_class" in name:
            opts.pop("detections_per_class", None)
        enc, scores = float_inputs(columns, enc_len, grid)
        model = postprocess_model(n, columns, enc_len, anchors, opts)
        save_case(FAMILY, name, model, [enc, scores], tolerance="exact",
                  description=f"TFLite_Detection_PostProcess float, {opts}")

    # Quantized inputs: uint8 box encodings, scores and anchors (as the SSD exports have them).
    box_q, score_q, anchor_q = (0.05, 128), (1 / 256, 0), (0.004, 0)
    qanchors = quantize(anchors, *anchor_q)
    for name, columns, opts in [
        ("postprocess_fast_uint8", 6, options(5, max_detections=10, score=0.25)),
        ("postprocess_fast_uint8_2_classes_per_box", 6, options(5, max_detections=10, max_classes=2, score=0.25)),
        ("postprocess_regular_uint8", 6, options(5, max_detections=20, per_class=6, score=0.25, regular=True)),
        ("postprocess_fast_uint8_coarse_ties", 9, options(8, max_detections=12, max_classes=3, score=0.2)),
        ("postprocess_regular_uint8_coarse_ties", 9, options(8, max_detections=40, per_class=8, score=0.2, regular=True)),
    ]:
        enc = quantize(rng.normal(0, 1.0, size=(1, n, 4)), *box_q)
        scores = rng.integers(0, 256, size=(1, n, columns)).astype(np.uint8)
        if "coarse" in name:
            scores = (scores // 64 * 64).astype(np.uint8)  # five levels: many exact ties
        model = postprocess_model(n, columns, 4, qanchors, opts, box_quant=box_q, score_quant=score_q,
                                  anchor_quant=anchor_q)
        save_case(FAMILY, name, model, [enc, scores], tolerance="exact",
                  description=f"TFLite_Detection_PostProcess uint8, {opts}")


def load_photo(path, size):
    from PIL import Image
    image = Image.open(path).convert("RGB").resize((size, size), Image.BILINEAR)
    return np.asarray(image, dtype=np.uint8)[None]


def postprocess_op(path):
    """The SSD model at `path`: its bytes, its TFLite_Detection_PostProcess operator, that
    operator's box, score and anchor tensors, the anchors, a (scale, zero point) reader and the
    operator's options."""
    data = open(path, "rb").read()
    model = schema.ModelT.InitFromPackedBuf(data, 0)
    sg = model.subgraphs[0]
    op = next(o for o in sg.operators if model.operatorCodes[o.opcodeIndex].customCode)
    box_t, score_t, anchor_t = (sg.tensors[i] for i in op.inputs)
    anchors = np.frombuffer(bytes(model.buffers[anchor_t.buffer].data), dtype=np.uint8).reshape(anchor_t.shape)
    quant = lambda t: (float(t.quantization.scale[0]), int(t.quantization.zeroPoint[0]))
    opts = flexbuffers.Loads(bytes(op.customOptions))
    return data, op, (box_t, score_t, anchor_t), anchors, quant, opts


def ssd_cut_cases(rng):
    """The post-process op cut out of the real SSD models, fed with captured activations."""
    for model_name in ["ssd_fish_uint8", "ssd_pets_uint8"]:
        path = os.path.join(SHARED_MODELS, model_name + ".tflite")
        if not os.path.exists(path):
            print(f"ops_detection: {path} missing, skipping the SSD cut cases")
            return
        data, op, (box_t, score_t, anchor_t), anchors, quant, opts = postprocess_op(path)
        from ai_edge_litert import interpreter as litert
        full = litert.Interpreter(model_content=data, experimental_preserve_all_tensors=True,
                                  experimental_op_resolver_type=litert.OpResolverType.BUILTIN_REF)
        full.allocate_tensors()
        inp = full.get_input_details()[0]
        size = int(inp["shape"][1])
        feeds = [("astronaut", load_photo(os.path.join(IMAGES, "astronaut.png"), size)),
                 ("chelsea", load_photo(os.path.join(IMAGES, "chelsea.png"), size)),
                 ("random", rng.integers(0, 256, size=inp["shape"]).astype(np.uint8))]
        for feed_name, image in feeds:
            full.set_tensor(inp["index"], image)
            full.invoke()
            enc = full.get_tensor(op.inputs[0]).copy()
            scores = full.get_tensor(op.inputs[1]).copy()
            variants = [("", opts)]
            if model_name == "ssd_pets_uint8":
                regular = dict(opts, use_regular_nms=True, detections_per_class=5, max_detections=20)
                variants.append(("_regular_nms", regular))
            for suffix, o in variants:
                cut = postprocess_model(enc.shape[1], scores.shape[2], enc.shape[2], anchors, o,
                                        box_quant=quant(box_t), score_quant=quant(score_t), anchor_quant=quant(anchor_t))
                save_case(FAMILY, f"postprocess_cut_{model_name}_{feed_name}{suffix}", cut, [enc, scores],
                          tolerance="exact",
                          description=f"TFLite_Detection_PostProcess cut from {model_name} (inputs captured on "
                                      f"{feed_name}), options {o}")


def ssd_fish_synthetic_case():
    """The ssd_fish post-process cut on synthetic activations that discriminate.

    ssd_fish's predictor heads are quantized with scale 1.0 and zero point 0: its box encodings
    round to 0 and its fish logit to 0 (score 0.5) for every input, so the cases captured from
    the whole model all give the same detections. This case feeds the cut op activations in the
    same quantization (box encodings 0..3, every score byte) from its own seed, and must give
    outputs that differ from every captured ssd_fish case already written.
    """
    path = os.path.join(SHARED_MODELS, "ssd_fish_uint8.tflite")
    if not os.path.exists(path):
        print(f"ops_detection: {path} missing, skipping the synthetic ssd_fish case")
        return
    data, op, (box_t, score_t, anchor_t), anchors, quant, opts = postprocess_op(path)
    rng = np.random.default_rng(4243)
    enc = rng.integers(0, 4, size=tuple(box_t.shape)).astype(np.uint8)
    scores = rng.integers(0, 256, size=tuple(score_t.shape)).astype(np.uint8)
    cut = postprocess_model(enc.shape[1], scores.shape[2], enc.shape[2], anchors, opts,
                            box_quant=quant(box_t), score_quant=quant(score_t), anchor_quant=quant(anchor_t))
    outputs = save_case(FAMILY, "postprocess_cut_ssd_fish_uint8_synthetic", cut, [enc, scores], tolerance="exact",
                        description="TFLite_Detection_PostProcess cut from ssd_fish_uint8 on synthetic activations "
                                    "in its quantization (box encodings 0..3, scores 0..255: the model's own "
                                    f"activations never change its detections), options {opts}")
    family = os.path.join(OPS_DIR, FAMILY)
    for name in sorted(os.listdir(family)):
        if not name.startswith("postprocess_cut_ssd_fish_uint8_") or name.endswith("_synthetic"):
            continue
        other = [np.load(os.path.join(family, name, f"output_{k}.npy")) for k in range(len(outputs))]
        if all(np.array_equal(p, q) for p, q in zip(outputs, other)):
            raise SystemExit(f"ops_detection: the synthetic ssd_fish case gives the same outputs as {name}")


def nms_model(n, max_output, iou, score, sigma=None):
    """NON_MAX_SUPPRESSION_V4 (sigma None) or V5 with constant size and thresholds."""
    tensors = [tensor("boxes", [n, 4], np.float32), tensor("scores", [n], np.float32),
               tensor("max_output_size", [], np.int32), tensor("iou_threshold", [], np.float32),
               tensor("score_threshold", [], np.float32)]
    constants = {2: np.array(max_output, np.int32), 3: np.array(iou, np.float32), 4: np.array(score, np.float32)}
    if sigma is None:
        tensors += [tensor("selected_indices", [max_output], np.int32), tensor("valid_outputs", [], np.int32)]
        return build(tensors, constants, [0, 1], [5, 6], [0, 1, 2, 3, 4], [5, 6],
                     builtin=schema.BuiltinOperator.NON_MAX_SUPPRESSION_V4)
    tensors += [tensor("soft_nms_sigma", [], np.float32), tensor("selected_indices", [max_output], np.int32),
                tensor("selected_scores", [max_output], np.float32), tensor("valid_outputs", [], np.int32)]
    constants[5] = np.array(sigma, np.float32)
    return build(tensors, constants, [0, 1], [6, 7, 8], [0, 1, 2, 3, 4, 5], [6, 7, 8],
                 builtin=schema.BuiltinOperator.NON_MAX_SUPPRESSION_V5)


def nms_cases(rng):
    def boxes_and_scores(n, grid=None):
        y, x = rng.uniform(0, 1, size=(2, n))
        h, w = rng.uniform(0.05, 0.4, size=(2, n))
        boxes = np.stack([y, x, y + h, x + w], axis=1).astype(np.float32)
        flip = rng.random(n) < 0.3          # corners in the other order
        boxes[flip] = boxes[flip][:, [2, 3, 0, 1]]
        boxes[:3, 2] = boxes[:3, 0]         # zero-area boxes
        boxes[10] = boxes[11]               # duplicates
        scores = rng.uniform(0, 1, size=n).astype(np.float32)
        if grid:
            scores = (np.round(scores * grid) / grid).astype(np.float32)
        return boxes, scores

    for name, n, max_out, iou, score, sigma, grid in [
        ("nms_v4", 80, 20, 0.5, 0.2, None, None),
        ("nms_v4_score_ties", 80, 30, 0.4, 0.0, None, 5),
        ("nms_v4_all_selected", 12, 20, 0.99, -1.0, None, None),
        ("nms_v5_soft", 80, 25, 0.6, 0.1, 0.5, None),
        ("nms_v5_soft_ties", 60, 40, 0.7, 0.05, 0.3, 6),
        ("nms_v5_hard", 60, 15, 0.5, 0.3, 0.0, None),
    ]:
        boxes, scores = boxes_and_scores(n, grid)
        model = nms_model(n, max_out, iou, score, sigma)
        save_case(FAMILY, name, model, [boxes, scores], tolerance="exact",
                  description=f"NON_MAX_SUPPRESSION_{'V4' if sigma is None else 'V5'} float, {n} boxes, "
                              f"max {max_out}, iou {iou}, score {score}, sigma {sigma}")


def main(selection=()):
    """Regenerates the family, or with `ssd_fish_synthetic` only that case."""
    if tuple(selection) == ("ssd_fish_synthetic",):
        ssd_fish_synthetic_case()
        return
    rng = np.random.default_rng(4242)
    clear_family(FAMILY)
    synthetic_cases(rng)
    ssd_cut_cases(rng)
    ssd_fish_synthetic_case()
    nms_cases(rng)


if __name__ == "__main__":
    import sys
    main(tuple(sys.argv[1:]))

"""Detectors of the `yolov5` and `yolo-nms` layouts derived from the real YOLOv8n, and a real SSD
with a packed label map (issue 14).

No published model of either layout can be fetched from the package registries, so this
script takes the real, trained ../shared/models/yolov8n_int8_640.tflite (Ultralytics export,
int8, one raw output [1, 84, 8400]: cx, cy, w, h normalized to the 640 x 640 input, then 80
class scores) and writes a copy of its whole graph, every original tensor, weight and operator
unchanged, with operators appended to that output:

  yolov5_from_yolov8n.tflite   output [1, 25200, 85] in YOLOv5's TFLite layout: rows
      [cx, cy, w, h, objectness, 80 class scores], boxes normalized to the input (as
      Ultralytics' YOLOv5 TFLite exports give them), 3 anchors per cell, rows ordered as
      YOLOv5's Detect head concatenates them: stride 8, 16, 32, and within each stride
      anchor by anchor over the cells (row-major). DEQUANTIZE, TRANSPOSE to [1, 8400, 84],
      then per stride and anchor: SLICE, MUL of w and h by the anchor's factor, CONCATENATION
      with an objectness column. Anchor 0 carries YOLOv8n's box with objectness 1, so its
      score (objectness x class score) is YOLOv8n's class score exactly; anchors 1 and 2 carry
      the same class scores with boxes twice and half as large and objectness 0 (no object):
      a decoder that ignored the objectness would report those boxes too (IoU 0.25 with the
      real one, below any NMS threshold).
  yolo_nms_from_yolov8n.tflite  output [1, 300, 6], an Ultralytics `nms=True` TFLite layout:
      rows [x1, y1, x2, y2, score, class], boxes normalized to the input, best first; the rows
      past the kept boxes have score 0. DEQUANTIZE, TRANSPOSE, RESHAPE to [8400, 84]; corners
      from centre and size; score = REDUCE_MAX and class = ARG_MAX (CAST to float) of the
      class scores; NON_MAX_SUPPRESSION_V5 (IoU 0.45, score 0.25, at most 300) on the corners
      shifted by 4 x class (so boxes of different classes never overlap: class-aware NMS, as
      the batched-NMS trick in YOLO exports does); GATHER of the unshifted corners and the
      class; the score column is NMS's selected score (0 in the padding rows). Where this NMS
      differs from the families' (scores > 0.25 rather than >= 0.25, suppression at IoU >= 0.45
      rather than > 0.45, 300 boxes rather than 100, shifted corners a few bits less precise)
      cannot matter on the test photos: see DerivedDetectorFamilyTests.

  ssd_pets_with_labelmap.tflite  the real ../shared/models/ssd_pets_uint8.tflite (graph and
      weights unchanged, repacked) with what the TF Lite Metadata Writer / Model Maker add to
      SSD and EfficientDet-Lite exports: a TFLITE_METADATA entry (ModelMetadata "ObjectDetector",
      input `image`, outputs location / category / score / number of detections, the category
      output with the associated file labelmap.txt of type TENSOR_VALUE_LABELS, output tensor
      group detection_result; written with the raw flatbuffers builder from metadata_schema.fbs's
      field ids) and a ZIP archive with labelmap.txt appended to the file. labelmap.txt is
      ssd_pets_labels.txt without its background line `???`: Model Maker packs line i as the
      post-process op's class i (the op's classes exclude the background). No raw-output golden:
      the graph is the source's; ObjectDetector on it is compared with the source model plus
      the side-car labels (DerivedDetectorFamilyTests).

The derived models are derived from third-party models (AGPL-3.0 weights, test data only):
they are never committed. `Scripts/derive-models.sh` (run by .ci/run after fetch-models)
writes them to Models/derived/ and checks them against Scripts/derived-models.sha256; the
bytes are deterministic for the pinned flatbuffers and schema module.

    python3 Scripts/goldens/derived_detectors.py [OUTPUT_DIR]   # the models (derive-models.sh runs this)
    Scripts/generate-goldens.sh derived_detectors               # derive-models.sh, then the goldens

Needs numpy, flatbuffers and the TFLite schema's generated Python module (with its object
API): `ai_edge_litert.schema_py_generated`, or a standalone `schema_py_generated` on the path
(derive-models.sh extracts it from the pinned ai-edge-litert wheel). `--goldens` also needs
the reference runtime (ai-edge-litert), reads the models derive-models.sh wrote (refusing any
whose SHA-256 is not pinned) and writes Tests/Fixtures/derived/<model>/photo/
(ModelGoldenCase format, see models.py): the reference kernels' whole output on the
motorcycle photo, stored as float32 and compared bit-exact. The end-to-end boxes are
Scripts/oracle/detector_oracle.py's (cases *_derived_*).
"""
import hashlib
import os
import sys

import numpy as np

try:
    from ai_edge_litert import schema_py_generated as schema
except ImportError:  # the standalone module extracted by derive-models.sh
    import schema_py_generated as schema
import flatbuffers

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
SOURCE = os.path.join(ROOT, "..", "shared", "models", "yolov8n_int8_640.tflite")
SIZE = 640
CLASSES = 80
LEVELS = [(0, 6400), (6400, 1600), (8000, 400)]   # (first cell, cells) of strides 8, 16, 32
ANCHOR_WH = [1.0, 2.0, 0.5]                       # w, h factor of anchors 0, 1, 2
ANCHOR_OBJECTNESS = [1.0, 0.0, 0.0]
NMS_IOU, NMS_SCORE, NMS_MAX = 0.45, 0.25, 300
CLASS_SHIFT = 4.0
MODELS = ["yolov5_from_yolov8n.tflite", "yolo_nms_from_yolov8n.tflite"]
SSD_SOURCE = os.path.join(ROOT, "..", "shared", "models", "ssd_pets_uint8.tflite")
SSD_LABELS = os.path.join(ROOT, "..", "shared", "models", "ssd_pets_labels.txt")
SSD_MODEL = "ssd_pets_with_labelmap.tflite"
Op = schema.BuiltinOperator
Opts = schema.BuiltinOptions
F32 = np.float32
TYPES = {np.dtype(F32): schema.TensorType.FLOAT32, np.dtype(np.int32): schema.TensorType.INT32}


class Graph:
    """The source model's object tree with appended tensors and operators."""

    def __init__(self, model_bytes):
        self.model = schema.ModelT.InitFromObj(schema.Model.GetRootAsModel(model_bytes, 0))
        assert len(self.model.subgraphs) == 1, "one subgraph expected"
        self.sub = self.model.subgraphs[0]
        self.count = 0

    def tensor(self, shape, dtype=F32, data=None):
        t = schema.TensorT()
        t.shape = list(shape)
        t.type = TYPES[np.dtype(dtype)]
        t.name = f"derived/{self.count}".encode()
        self.count += 1
        t.buffer = 0
        if data is not None:
            buffer = schema.BufferT()
            buffer.data = np.frombuffer(np.ascontiguousarray(data, dtype=dtype).tobytes(), dtype=np.uint8)
            self.model.buffers.append(buffer)
            t.buffer = len(self.model.buffers) - 1
        self.sub.tensors.append(t)
        return len(self.sub.tensors) - 1

    def const(self, values, dtype=F32):
        values = np.asarray(values, dtype=dtype)
        return self.tensor(values.shape, dtype, data=values)

    def opcode(self, code, version):
        for i, c in enumerate(self.model.operatorCodes):
            if max(c.builtinCode, c.deprecatedBuiltinCode) == code:
                return i
        c = schema.OperatorCodeT()
        c.builtinCode, c.deprecatedBuiltinCode, c.version = code, min(code, 127), version
        self.model.operatorCodes.append(c)
        return len(self.model.operatorCodes) - 1

    def op(self, code, inputs, outputs, options=None, version=1):
        o = schema.OperatorT()
        o.opcodeIndex = self.opcode(code, version)
        o.inputs, o.outputs = list(inputs), list(outputs)
        if options is not None:
            o.builtinOptionsType, o.builtinOptions = options
        self.sub.operators.append(o)

    def unary(self, code, x, shape, dtype=F32, options=None, extra=(), version=1):
        out = self.tensor(shape, dtype)
        self.op(code, [x, *extra], [out], options, version)
        return out

    def binary(self, code, a, b, shape):
        options = {Op.ADD: (Opts.AddOptions, schema.AddOptionsT()), Op.SUB: (Opts.SubOptions, schema.SubOptionsT()),
                   Op.MUL: (Opts.MulOptions, schema.MulOptionsT())}[code]
        return self.unary(code, a, shape, options=options, extra=(b,))

    def slice(self, x, begin, size):
        return self.unary(Op.SLICE, x, size, options=(Opts.SliceOptions, schema.SliceOptionsT()),
                          extra=(self.const(begin, np.int32), self.const(size, np.int32)))

    def concat(self, xs, axis, shape):
        options = schema.ConcatenationOptionsT()
        options.axis = axis
        out = self.tensor(shape)
        self.op(Op.CONCATENATION, xs, [out], (Opts.ConcatenationOptions, options))
        return out

    def reshape(self, x, shape, dtype=F32):
        options = schema.ReshapeOptionsT()
        options.newShape = list(shape)
        return self.unary(Op.RESHAPE, x, shape, dtype, (Opts.ReshapeOptions, options),
                          extra=(self.const(shape, np.int32),))

    def float_rows(self):
        """The source output dequantized and transposed: [1, 8400, 84] float."""
        (source,) = self.sub.outputs
        t = self.sub.tensors[source]
        assert list(t.shape) == [1, 4 + CLASSES, 8400] and t.type == schema.TensorType.INT8, "yolov8n's raw int8 head"
        x = self.unary(Op.DEQUANTIZE, source, [1, 4 + CLASSES, 8400], version=2)
        return self.unary(Op.TRANSPOSE, x, [1, 8400, 4 + CLASSES], options=(Opts.TransposeOptions, schema.TransposeOptionsT()),
                          extra=(self.const([0, 2, 1], np.int32),))

    def build(self, output, description):
        self.sub.outputs = [output]
        self.model.description = description.encode()
        b = flatbuffers.Builder(1 << 22)
        b.Finish(self.model.Pack(b), file_identifier=b"TFL3")
        return bytes(b.Output())


def yolov5(source_bytes):
    g = Graph(source_bytes)
    rows = g.float_rows()
    blocks, total = [], 0
    for first, cells in LEVELS:
        box = g.slice(rows, [0, first, 0], [1, cells, 4])
        classes = g.slice(rows, [0, first, 4], [1, cells, CLASSES])
        for factor, objectness in zip(ANCHOR_WH, ANCHOR_OBJECTNESS):
            scaled = box if factor == 1 else g.binary(Op.MUL, box, g.const([[[1, 1, factor, factor]]]), [1, cells, 4])
            obj = g.const(np.full((1, cells, 1), objectness, F32))
            blocks.append(g.concat([scaled, obj, classes], 2, [1, cells, 5 + CLASSES]))
            total += cells
    out = g.concat(blocks, 1, [1, total, 5 + CLASSES])
    return g.build(out, "YOLOv5-layout detector derived from yolov8n_int8_640 (LiteVision test data, not a trained "
                        "YOLOv5): [1, 25200, 85] = 3 anchors x 8400 cells x (cx, cy, w, h, objectness, 80 classes)")


def yolo_nms(source_bytes):
    g = Graph(source_bytes)
    n = 8400
    rows = g.reshape(g.float_rows(), [n, 4 + CLASSES])
    centre, size = g.slice(rows, [0, 0], [n, 2]), g.slice(rows, [0, 2], [n, 2])
    half = g.binary(Op.MUL, size, g.const([0.5]), [n, 2])
    corners = g.concat([g.binary(Op.SUB, centre, half, [n, 2]), g.binary(Op.ADD, centre, half, [n, 2])], 1, [n, 4])
    classes = g.slice(rows, [0, 4], [n, CLASSES])
    reducer = schema.ReducerOptionsT()
    reducer.keepDims = False
    score = g.unary(Op.REDUCE_MAX, classes, [n], options=(Opts.ReducerOptions, reducer),
                    extra=(g.const([1], np.int32),))
    argmax = schema.ArgMaxOptionsT()
    argmax.outputType = schema.TensorType.INT32
    best = g.unary(Op.ARG_MAX, classes, [n], np.int32, (Opts.ArgMaxOptions, argmax), extra=(g.const([1], np.int32),))
    best = g.unary(Op.CAST, best, [n], options=(Opts.CastOptions, schema.CastOptionsT()))
    shift = g.binary(Op.MUL, g.reshape(best, [n, 1]), g.const([CLASS_SHIFT]), [n, 1])
    shifted = g.binary(Op.ADD, corners, shift, [n, 4])
    index, kept_score, valid = g.tensor([NMS_MAX], np.int32), g.tensor([NMS_MAX]), g.tensor([], np.int32)
    g.op(Op.NON_MAX_SUPPRESSION_V5,
         [shifted, score, g.const(NMS_MAX, np.int32), g.const(NMS_IOU), g.const(NMS_SCORE), g.const(0.0)],
         [index, kept_score, valid], (Opts.NonMaxSuppressionV5Options, schema.NonMaxSuppressionV5OptionsT()))
    gather = schema.GatherOptionsT()
    gather.axis = 0
    kept_corners = g.unary(Op.GATHER, corners, [NMS_MAX, 4], options=(Opts.GatherOptions, gather), extra=(index,))
    kept_class = g.unary(Op.GATHER, best, [NMS_MAX], options=(Opts.GatherOptions, gather), extra=(index,))
    table = g.concat([kept_corners, g.reshape(kept_score, [NMS_MAX, 1]), g.reshape(kept_class, [NMS_MAX, 1])],
                     1, [NMS_MAX, 6])
    out = g.reshape(table, [1, NMS_MAX, 6])
    return g.build(out, "YOLO layout with NMS in the graph derived from yolov8n_int8_640 (LiteVision test data): "
                        "[1, 300, 6] = x1, y1, x2, y2, score, class; NON_MAX_SUPPRESSION_V5 IoU 0.45, score 0.25")


# --- ssd_pets_with_labelmap: a packed label map, as the Metadata Writer packs SSD/EfficientDet ---

METADATA_IDENTIFIER = b"M001"        # metadata_schema.fbs file_identifier
METADATA_PARSER_VERSION = "1.2.0"    # the oldest parser that reads output tensor groups
LABEL_FILE = "labelmap.txt"
TENSOR_VALUE_LABELS = 3              # AssociatedFileType
FEATURE_PROPERTIES, IMAGE_PROPERTIES, BOUNDING_BOX_PROPERTIES = 1, 2, 3   # ContentProperties union
NORMALIZATION_OPTIONS = 1            # ProcessUnitOptions union
COLOR_SPACE_RGB = 1
BOUNDARIES, RATIO = 1, 0             # BoundingBoxType, CoordinateType


class MetadataWriter:
    """Writes metadata_schema.fbs tables with the raw flatbuffers builder (no generated module).
    Field ids are the schema's declaration order; a union takes two (type, then value)."""

    def __init__(self):
        self.b = flatbuffers.Builder(1024)

    def strings(self, values):
        offsets = [self.b.CreateString(v) for v in values]
        self.b.StartVector(4, len(offsets), 4)
        for o in reversed(offsets):
            self.b.PrependUOffsetTRelative(o)
        return self.b.EndVector()

    def tables(self, offsets):
        self.b.StartVector(4, len(offsets), 4)
        for o in reversed(offsets):
            self.b.PrependUOffsetTRelative(o)
        return self.b.EndVector()

    def scalars(self, values, prepend, size):
        self.b.StartVector(size, len(values), size)
        for v in reversed(values):
            prepend(v)
        return self.b.EndVector()

    def table(self, fields):
        """`fields`: (id, kind, value) with kind "offset", "int8" or "int32"; None values are absent."""
        self.b.StartObject(1 + max(i for i, _, _ in fields))
        for i, kind, value in fields:
            if value is None:
                continue
            if kind == "offset":
                self.b.PrependUOffsetTRelativeSlot(i, value, 0)
            elif kind == "int8":
                self.b.PrependInt8Slot(i, value, 0)
            else:
                self.b.PrependInt32Slot(i, value, 0)
        return self.b.EndObject()

    def associated_file(self, name, description, file_type):
        # AssociatedFile: name 0, description 1, type 2, locale 3, version 4
        name, description = self.b.CreateString(name), self.b.CreateString(description)
        return self.table([(0, "offset", name), (1, "offset", description), (2, "int8", file_type)])

    def content(self, properties_type, properties, value_range=None):
        # Content: content_properties_type 0, content_properties 1, range 2 (ValueRange: min 0, max 1)
        range_offset = None
        if value_range is not None:
            range_offset = self.table([(0, "int32", value_range[0]), (1, "int32", value_range[1])])
        return self.table([(0, "int8", properties_type), (1, "offset", properties), (2, "offset", range_offset)])

    def tensor(self, name, description, content, process_units=None, stats=None, files=None):
        # TensorMetadata: name 0, description 1, dimension_names 2, content 3, process_units 4,
        # stats 5, associated_files 6
        name, description = self.b.CreateString(name), self.b.CreateString(description)
        return self.table([(0, "offset", name), (1, "offset", description), (3, "offset", content),
                           (4, "offset", process_units), (5, "offset", stats), (6, "offset", files)])

    def floats(self, values):
        return self.scalars([float(v) for v in values], self.b.PrependFloat32, 4)

    def finish(self, root):
        self.b.Finish(root, file_identifier=METADATA_IDENTIFIER)
        return bytes(self.b.Output())


def detector_metadata(output_names):
    """TFLITE_METADATA of an SSD-style detector as the Metadata Writer for object detectors
    writes it: an RGB uint8 `image` input (normalization 127.5/127.5, stats 0...255), outputs
    `location` (boxes ymin, xmin, ymax, xmax as ratios: BoundingBoxProperties index [1, 0, 3, 2]),
    `category` (detection classes: value labels in labelmap.txt), `score`, `number of
    detections`, and the output tensor group `detection_result`. `output_names` lists the
    four roles in the model's output order."""
    w = MetadataWriter()
    b = w.b
    # Input: ImageProperties (color_space 0, default_size 1), NormalizationOptions (mean 0, std 1),
    # Stats (max 0, min 1), ProcessUnit (options_type 0, options 1).
    image_properties = w.table([(0, "int8", COLOR_SPACE_RGB)])
    mean, std = w.floats([127.5]), w.floats([127.5])
    normalization = w.table([(0, "offset", mean), (1, "offset", std)])
    unit = w.table([(0, "int8", NORMALIZATION_OPTIONS), (1, "offset", normalization)])
    stats_max, stats_min = w.floats([255.0]), w.floats([0.0])
    stats = w.table([(0, "offset", stats_max), (1, "offset", stats_min)])
    image = w.tensor("image", "Input image to be detected.", w.content(IMAGE_PROPERTIES, image_properties),
                     process_units=w.tables([unit]), stats=stats)

    def feature(value_range=None):
        return w.content(FEATURE_PROPERTIES, w.table([(0, "int8", None)]), value_range)

    outputs = {}
    # BoundingBoxProperties: index 0 ([uint]), type 1, coordinate_type 2
    index = w.scalars([1, 0, 3, 2], b.PrependUint32, 4)
    box = w.table([(0, "offset", index), (1, "int8", BOUNDARIES), (2, "int8", RATIO)])
    outputs["location"] = w.tensor("location", "The locations of the detected boxes.",
                                   w.content(BOUNDING_BOX_PROPERTIES, box, (2, 2)))
    labelmap = w.associated_file(LABEL_FILE, "Labels for categories that the model can recognize.",
                                 TENSOR_VALUE_LABELS)
    outputs["category"] = w.tensor("category", "The categories of the detected boxes.", feature((2, 2)),
                                   files=w.tables([labelmap]))
    outputs["score"] = w.tensor("score", "The scores of the detected boxes.", feature((2, 2)))
    outputs["number of detections"] = w.tensor("number of detections", "The number of the detected boxes.", feature())
    # TensorGroup: name 0, tensor_names 1
    group_name, group_members = b.CreateString("detection_result"), w.strings(["location", "category", "score"])
    group = w.table([(0, "offset", group_name), (1, "offset", group_members)])
    # SubgraphMetadata: name 0, description 1, input_tensor_metadata 2, output_tensor_metadata 3,
    # associated_files 4, input_process_units 5, output_process_units 6, input_tensor_groups 7,
    # output_tensor_groups 8
    subgraph = w.table([(2, "offset", w.tables([image])),
                        (3, "offset", w.tables([outputs[n] for n in output_names])),
                        (8, "offset", w.tables([group]))])
    # ModelMetadata: name 0, description 1, version 2, subgraph_metadata 3, author 4, license 5,
    # associated_files 6, min_parser_version 7
    name = b.CreateString("ObjectDetector")
    description = b.CreateString("Identify which of a known set of objects might be present and provide information "
                                 "about their positions within the given image or a video stream.")
    subgraphs = w.tables([subgraph])
    parser = b.CreateString(METADATA_PARSER_VERSION)
    root = w.table([(0, "offset", name), (1, "offset", description), (3, "offset", subgraphs),
                    (7, "offset", parser)])
    return w.finish(root)


def append_archive(model_bytes, files):
    """The model followed by a ZIP archive of `files` (name → bytes), as the metadata populator
    appends it (Python's zipfile in append mode on the model: stored entries, offsets from the
    start of the file). Timestamps and attributes are fixed so the bytes are deterministic."""
    import io
    import zipfile
    out = io.BytesIO(model_bytes)
    out.seek(0, io.SEEK_END)
    with zipfile.ZipFile(out, "a", compression=zipfile.ZIP_STORED) as z:
        for name, data in files.items():
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_STORED
            info.create_system = 3
            info.external_attr = 0o644 << 16
            z.writestr(info, data)
    return out.getvalue()


def packed_labelmap(labels_text):
    """labelmap.txt as a Model Maker export packs it: one name per line, each ending in a newline,
    line i naming the post-process op's class i. The op's classes exclude the background, so
    the side-car file's background slot (its first line `???`) is not packed (Model Maker's
    export skips label_map[0], the background; the family shifts only lists that start with one)."""
    lines = labels_text.splitlines()
    assert lines and lines[0] == "???", "ssd_pets_labels.txt starts with the background slot"
    return "".join(line + "\n" for line in lines[1:]).encode()


def ssd_with_labelmap(source_bytes, labels_text):
    """The source SSD's graph and weights unchanged, a TFLITE_METADATA entry (model metadata with
    the label map as output 1's TENSOR_VALUE_LABELS file) and the ZIP archive with labelmap.txt."""
    model = schema.ModelT.InitFromObj(schema.Model.GetRootAsModel(source_bytes, 0))
    sub = model.subgraphs[0]
    post = sub.operators[-1]
    assert model.operatorCodes[post.opcodeIndex].customCode == b"TFLite_Detection_PostProcess", "an SSD export"
    roles = ["location", "category", "score", "number of detections"]   # the op's outputs, in order
    output_names = [roles[list(post.outputs).index(t)] for t in sub.outputs]
    assert output_names[1] == "category", "detection classes at output 1"
    buffer = schema.BufferT()
    buffer.data = np.frombuffer(detector_metadata(output_names), dtype=np.uint8)
    model.buffers.append(buffer)
    entry = schema.MetadataT()
    entry.name, entry.buffer = b"TFLITE_METADATA", len(model.buffers) - 1
    model.metadata = list(model.metadata or []) + [entry]
    b = flatbuffers.Builder(1 << 22)
    b.Finish(model.Pack(b), file_identifier=b"TFL3")
    return append_archive(bytes(b.Output()), {LABEL_FILE: packed_labelmap(labels_text)})


def derive(output_dir):
    """Writes the derived models into `output_dir`; returns the paths of the YOLO layouts (the
    ones with raw-output goldens)."""
    with open(SOURCE, "rb") as f:
        source = f.read()
    os.makedirs(output_dir, exist_ok=True)

    def write(name, data):
        path = os.path.join(output_dir, name)
        with open(path + ".tmp", "wb") as f:
            f.write(data)
        os.replace(path + ".tmp", path)
        print(f"derived {name}: {len(data)} bytes, sha256 {hashlib.sha256(data).hexdigest()}")
        return path

    paths = [write(name, build(source)) for name, build in zip(MODELS, [yolov5, yolo_nms])]
    with open(SSD_SOURCE, "rb") as f, open(SSD_LABELS, encoding="utf-8") as labels:
        write(SSD_MODEL, ssd_with_labelmap(f.read(), labels.read()))
    return paths


def goldens(paths):
    """Tests/Fixtures/derived/<stem>/photo: the reference kernels' whole output on the
    motorcycle photo, input as models.py's yolov8n_int8_640/photo case."""
    import json
    import shutil
    from common import run_reference
    from models import MODELS as SWEEP, OUT as MODELS_OUT, store_outputs, to_input
    (_, photo, (scale, offset), _), = [m for m in SWEEP if m[0] == "shared/yolov8n_int8_640.tflite"]
    image = f"images/{photo}_{SIZE}x{SIZE}x3.npy"
    pixels = np.load(os.path.join(MODELS_OUT, image))
    x = to_input(pixels, scale, offset, np.int8, (1, SIZE, SIZE, 3))
    for path in paths:
        stem = os.path.splitext(os.path.basename(path))[0]
        with open(path, "rb") as f:
            outputs = run_reference(f.read(), [x])
        d = os.path.join(ROOT, "Tests", "Fixtures", "derived", stem, "photo")
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
        meta = store_outputs(d, outputs, exact=True)
        case = {"model": "Models/derived/" + os.path.basename(path), "input": {"kind": "photo", "image": image},
                "scale": scale, "offset": offset, "tolerance": "exact", "outputs": meta}
        with open(os.path.join(d, "case.json"), "w") as f:
            json.dump(case, f, indent=1)
        print(f"  {stem}/photo: {os.path.getsize(os.path.join(d, 'outputs.zip'))} bytes")


def pinned_models():
    """The models in Models/derived, checked against Scripts/derived-models.sha256 (the goldens
    must come from the bytes CI derives)."""
    directory = os.path.join(ROOT, "Models")
    paths = []
    with open(os.path.join(ROOT, "Scripts", "derived-models.sha256")) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            digest, name = line.split()
            path = os.path.join(directory, name)
            with open(path, "rb") as m:
                if hashlib.sha256(m.read()).hexdigest() != digest:
                    raise SystemExit(f"{path} is not the pinned derived model: run Scripts/derive-models.sh")
            paths.append(path)
    return paths


if __name__ == "__main__":
    if sys.argv[1:] == ["--goldens"]:
        goldens([p for p in pinned_models() if os.path.basename(p) in MODELS])   # the YOLO layouts
    else:
        derive(sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "Models", "derived"))

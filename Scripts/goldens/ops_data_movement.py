"""Golden cases for the data-movement operators (Tests/Fixtures/ops/data_movement/).

Every case is a one-operator model built with single_op_model.py so that element types,
quantization parameters, constant inputs and option combinations are exactly the ones
under test; outputs come from the reference kernels (common.save_case).
Run: PYTHON=... Scripts/generate-goldens.sh ops_data_movement
"""
import numpy as np

from common import clear_family, random_input, save_case
from single_op_model import T, build, const, options, options_type

FAMILY = "data_movement"
rng = np.random.default_rng(20261121)

# BuiltinOperator codes.
CONCATENATION, DEPTH_TO_SPACE, DEQUANTIZE, RESHAPE, RESIZE_BILINEAR = 2, 5, 6, 22, 23
SPACE_TO_DEPTH, PAD, TRANSPOSE, SQUEEZE, STRIDED_SLICE = 26, 34, 39, 43, 45
PADV2, SLICE, EXPAND_DIMS, RESIZE_NEAREST_NEIGHBOR, QUANTIZE = 60, 65, 70, 97, 114
GATHER, TOPK_V2, SPLIT, CAST, TILE, SHAPE, PACK, UNPACK = 36, 48, 49, 53, 69, 77, 83, 88
ZEROS_LIKE, FILL, RANGE, MIRROR_PAD, SPLIT_V, GATHER_ND, WHERE = 93, 94, 96, 100, 102, 107, 109
SCATTER_ND, DENSIFY, BROADCAST_TO = 122, 124, 130


def opt(name, **fields):
    return dict(options_type=options_type(name), options_fn=options(name, **fields))


def case(name, op, inputs, outputs, tolerance="exact", description="", low=-1.0, high=1.0, feeds=None, **kw):
    """One golden case; `feeds` may fix some graph inputs' values (None entries are random)."""
    model = build(op, inputs, outputs, **kw)
    graph_inputs = [t for t in inputs if t.data is None]
    feeds = feeds or [None] * len(graph_inputs)
    feeds = [f if f is not None else random_input(rng, t.shape, t.dtype, low, high) for t, f in zip(graph_inputs, feeds)]
    save_case(FAMILY, name, model, feeds, tolerance=tolerance, description=description or name)


def out(dtype, quant=None, shape=(1,)):
    """An output tensor; the reference computes its shape (declared [1] unless it checks the rank)."""
    return T(shape, dtype, quant=quant)


def concatenation():
    case("concat_float_axis1", CONCATENATION,
         [T([2, 3, 4], np.float32), T([2, 1, 4], np.float32), T([2, 5, 4], np.float32)],
         [out(np.float32)], **opt("ConcatenationOptions", Axis=1))
    case("concat_float_axis_neg1", CONCATENATION, [T([1, 2, 3, 2], np.float32), T([1, 2, 3, 3], np.float32)],
         [out(np.float32)], **opt("ConcatenationOptions", Axis=-1))
    case("concat_uint8_requantize", CONCATENATION,
         [T([1, 2, 2, 3], np.uint8, (0.1, 120)), T([1, 2, 2, 2], np.uint8, (0.02, 3)),
          T([1, 2, 2, 1], np.uint8, (0.05, 128)), T([1, 2, 2, 2], np.uint8, (0.3, 0))],
         [out(np.uint8, (0.05, 128))], description="uint8 inputs with differing scales/zero points",
         **opt("ConcatenationOptions", Axis=3))
    case("concat_int8_axis0", CONCATENATION, [T([1, 3], np.int8, (0.1, -4)), T([2, 3], np.int8, (0.1, -4))],
         [out(np.int8, (0.1, -4))], **opt("ConcatenationOptions", Axis=0))
    case("concat_int32_int64", CONCATENATION, [T([2, 2], np.int64), T([2, 3], np.int64)],
         [out(np.int64)], **opt("ConcatenationOptions", Axis=-1))
    case("concat_int16", CONCATENATION, [T([3, 1], np.int16, (0.01, 0)), T([3, 2], np.int16, (0.01, 0))],
         [out(np.int16, (0.01, 0))], **opt("ConcatenationOptions", Axis=1))


def shapes():
    case("reshape_shape_tensor_neg1", RESHAPE, [T([2, 3, 4], np.float32), const([4, -1])], [out(np.float32)])
    case("reshape_options_uint8", RESHAPE, [T([2, 3, 4], np.uint8, (0.5, 3))], [T([6, 4], np.uint8, (0.5, 3))],
         **opt("ReshapeOptions", NewShape=[6, 4]))
    case("reshape_shape_from_graph_input", RESHAPE, [T([2, 3, 4], np.float32), T([2], np.int32)],
         [T([4, 6], np.float32)], description="shape tensor is not constant: the declared output shape is used",
         feeds=[None, np.array([4, 6], np.int32)])
    case("reshape_int32_scalar_to_vector", RESHAPE, [T([], np.int32), const([1])], [out(np.int32)])
    case("squeeze_all", SQUEEZE, [T([1, 3, 1, 4], np.float32)], [out(np.float32)])
    case("squeeze_dims_neg", SQUEEZE, [T([1, 3, 1, 4], np.int8, (0.2, 1))], [out(np.int8, (0.2, 1))],
         **opt("SqueezeOptions", SqueezeDims=[-2]))
    case("expand_dims_last_bool", EXPAND_DIMS, [T([2, 3], np.bool_), const([-1])], [out(np.bool_)])
    case("expand_dims_first_float", EXPAND_DIMS, [T([2, 3], np.float32), const([0])], [out(np.float32)])


def transpose():
    case("transpose_float_nchw", TRANSPOSE, [T([2, 3, 4, 5], np.float32), const([0, 3, 1, 2])], [out(np.float32)])
    case("transpose_int8_rank3", TRANSPOSE, [T([3, 5, 7], np.int8, (0.1, 2)), const([2, 0, 1])], [out(np.int8, (0.1, 2))])
    case("transpose_uint8_rank6", TRANSPOSE, [T([2, 1, 3, 2, 2, 3], np.uint8, (0.1, 9)), const([5, 1, 3, 0, 2, 4])],
         [out(np.uint8, (0.1, 9))])
    case("transpose_int16_rank5", TRANSPOSE, [T([2, 3, 2, 4, 3], np.int16, (0.01, 0)), const([4, 2, 0, 3, 1])],
         [out(np.int16, (0.01, 0))])
    case("transpose_int64_rank2", TRANSPOSE, [T([3, 7], np.int64), const([1, 0])], [out(np.int64)])
    case("transpose_bool", TRANSPOSE, [T([3, 4], np.bool_), const([1, 0])], [out(np.bool_)])


def pad():
    case("pad_float_4d", PAD, [T([1, 3, 4, 2], np.float32), const([[0, 0], [1, 2], [2, 1], [0, 0]])], [out(np.float32)])
    case("pad_uint8_zero_point", PAD, [T([1, 2, 3, 2], np.uint8, (0.1, 7)), const([[0, 1], [1, 1], [0, 2], [1, 0]])],
         [out(np.uint8, (0.1, 7))], description="quantized PAD pads with the zero point")
    case("pad_int8_int64_paddings", PAD, [T([2, 3], np.int8, (0.1, -5)), const([[1, 0], [2, 3]], np.int64)],
         [out(np.int8, (0.1, -5))])
    case("pad_int32_rank1", PAD, [T([5], np.int32), const([[3, 1]])], [out(np.int32)])
    case("pad_float_rank5", PAD, [T([1, 2, 2, 2, 2], np.float32), const([[0, 1], [1, 0], [0, 1], [1, 1], [0, 1]])],
         [out(np.float32)])
    case("padv2_float_constant", PADV2, [T([2, 3, 2], np.float32), const([[1, 0], [0, 2], [1, 1]]),
                                         const([1.5], np.float32, shape=[])], [out(np.float32)])
    case("padv2_int8_constant", PADV2, [T([1, 3, 3, 1], np.int8, (0.1, 0)), const([[0, 0], [1, 1], [1, 1], [0, 0]]),
                                        const([-128], np.int8, shape=[], quant=(0.1, 0))], [out(np.int8, (0.1, 0))])


def slices():
    case("slice_float", SLICE, [T([3, 4, 5], np.float32), const([1, 0, 2]), const([2, -1, 3])], [out(np.float32, shape=(2, 4, 3))])
    case("slice_int64_indices_bool", SLICE, [T([4, 3], np.bool_), const([1, 1], np.int64), const([3, 2], np.int64)],
         [out(np.bool_, shape=(3, 2))])
    ss = STRIDED_SLICE
    x = lambda: T([5, 6, 7], np.float32)
    case("strided_slice_negative_stride", ss, [x(), const([1, 0, -1]), const([4, 6, 0]), const([2, 1, -2])],
         [out(np.float32)])
    case("strided_slice_begin_end_masks", ss, [x(), const([3, 2, 1]), const([1, 5, 5]), const([-1, 2, 1])],
         [out(np.float32)], **opt("StridedSliceOptions", BeginMask=5, EndMask=2))
    case("strided_slice_shrink", ss, [x(), const([0, -2, 1]), const([5, 0, 6]), const([1, 1, 2])],
         [out(np.float32)], **opt("StridedSliceOptions", ShrinkAxisMask=2))
    case("strided_slice_ellipsis", ss, [T([2, 3, 4, 5], np.float32), const([0, 1]), const([0, 4]), const([1, 2])],
         [out(np.float32)], **opt("StridedSliceOptions", EllipsisMask=1))
    case("strided_slice_ellipsis_middle", ss, [T([2, 3, 4, 5], np.int8, (0.1, 0)), const([1, 0, -1]), const([2, 0, 0]),
                                               const([1, 1, 1])],
         [out(np.int8, (0.1, 0))], **opt("StridedSliceOptions", EllipsisMask=2, ShrinkAxisMask=4))
    case("strided_slice_new_axis", ss, [x(), const([1, 0, 0]), const([3, 0, 7]), const([1, 1, 3])],
         [out(np.float32)], **opt("StridedSliceOptions", NewAxisMask=2))
    case("strided_slice_reverse_all", ss, [T([4, 5], np.uint8, (0.1, 3)), const([0, 0]), const([0, 0]), const([-1, -1])],
         [out(np.uint8, (0.1, 3))], **opt("StridedSliceOptions", BeginMask=3, EndMask=3))
    case("strided_slice_offset", ss, [x(), const([1, 2, 0]), const([3, 2, 7]), const([1, 1, 2])],
         [out(np.float32)], **opt("StridedSliceOptions", Offset=True))
    case("strided_slice_int32_clamp", ss, [T([6, 4], np.int32), const([-100, 1]), const([100, 3]), const([2, 1])],
         [out(np.int32)])
    case("strided_slice_yolo_like", ss, [T([1, 8, 10], np.int8, (0.05, -10)), const([0, 0, 0]), const([1, 4, 10]),
                                         const([1, 1, 1])],
         [out(np.int8, (0.05, -10))], **opt("StridedSliceOptions", BeginMask=5, EndMask=5))
    case("strided_slice_bool_int16", ss, [T([4, 3], np.int16, (0.01, 0)), const([3, 0]), const([0, 3]),
                                          const([-1, 1])], [out(np.int16, (0.01, 0))])


def resize():
    modes = [("", False, False), ("_align", True, False), ("_half", False, True)]
    for suffix, ac, hp in modes:
        case(f"resize_bilinear_float_up{suffix}", RESIZE_BILINEAR, [T([1, 5, 7, 3], np.float32), const([9, 4])],
             [out(np.float32)], tolerance="float",
             **opt("ResizeBilinearOptions", AlignCorners=ac, HalfPixelCenters=hp))
        case(f"resize_bilinear_uint8{suffix}", RESIZE_BILINEAR, [T([2, 4, 3, 2], np.uint8, (0.1, 5)), const([7, 8])],
             [out(np.uint8, (0.1, 5))], **opt("ResizeBilinearOptions", AlignCorners=ac, HalfPixelCenters=hp))
        case(f"resize_bilinear_int8{suffix}", RESIZE_BILINEAR, [T([1, 4, 5, 3], np.int8, (0.1, -3)), const([6, 9])],
             [out(np.int8, (0.1, -3))], **opt("ResizeBilinearOptions", AlignCorners=ac, HalfPixelCenters=hp))
        case(f"resize_nearest_float{suffix}", RESIZE_NEAREST_NEIGHBOR, [T([1, 4, 5, 2], np.float32), const([7, 3])],
             [out(np.float32)], **opt("ResizeNearestNeighborOptions", AlignCorners=ac, HalfPixelCenters=hp))
        case(f"resize_nearest_int8{suffix}", RESIZE_NEAREST_NEIGHBOR, [T([2, 3, 3, 2], np.int8, (0.1, 0)), const([6, 5])],
             [out(np.int8, (0.1, 0))], **opt("ResizeNearestNeighborOptions", AlignCorners=ac, HalfPixelCenters=hp))
    case("resize_bilinear_float_down_half", RESIZE_BILINEAR, [T([1, 8, 6, 2], np.float32), const([3, 5])],
         [out(np.float32)], tolerance="float", **opt("ResizeBilinearOptions", HalfPixelCenters=True))
    case("resize_bilinear_int16", RESIZE_BILINEAR, [T([1, 3, 4, 2], np.int16, (0.001, 0)), const([5, 7])],
         [out(np.int16, (0.001, 0))], **opt("ResizeBilinearOptions", HalfPixelCenters=True))
    case("resize_nearest_uint8_2x", RESIZE_NEAREST_NEIGHBOR, [T([1, 3, 4, 3], np.uint8, (0.1, 0)), const([6, 8])],
         [out(np.uint8, (0.1, 0))])


def depth_space():
    case("depth_to_space_float", DEPTH_TO_SPACE, [T([1, 2, 3, 8], np.float32)], [out(np.float32)],
         **opt("DepthToSpaceOptions", BlockSize=2))
    case("depth_to_space_uint8_b3", DEPTH_TO_SPACE, [T([2, 2, 2, 18], np.uint8, (0.1, 0))], [out(np.uint8, (0.1, 0))],
         **opt("DepthToSpaceOptions", BlockSize=3))
    case("space_to_depth_int8", SPACE_TO_DEPTH, [T([1, 4, 6, 3], np.int8, (0.1, 0))], [out(np.int8, (0.1, 0))],
         **opt("SpaceToDepthOptions", BlockSize=2))


def quantization():
    f = lambda: T([2, 3, 5], np.float32)
    case("quantize_float_uint8", QUANTIZE, [f()], [T([2, 3, 5], np.uint8, (0.02, 128))], low=-3, high=3)
    case("quantize_float_int8", QUANTIZE, [f()], [T([2, 3, 5], np.int8, (0.015, -3))], low=-3, high=3)
    case("quantize_float_int16", QUANTIZE, [f()], [T([2, 3, 5], np.int16, (0.0005, 0))], low=-20, high=20)
    case("quantize_uint8_to_int8", QUANTIZE, [T([4, 6], np.uint8, (0.03, 130))], [T([4, 6], np.int8, (0.05, -7))])
    case("quantize_int8_to_int8", QUANTIZE, [T([4, 6], np.int8, (0.07, 5))], [T([4, 6], np.int8, (0.02, -1))])
    case("quantize_int8_to_uint8", QUANTIZE, [T([4, 6], np.int8, (0.05, 0))], [T([4, 6], np.uint8, (0.05, 128))])
    case("quantize_uint8_to_uint8", QUANTIZE, [T([4, 6], np.uint8, (0.05, 10))], [T([4, 6], np.uint8, (0.11, 200))])
    case("quantize_int16_to_int8", QUANTIZE, [T([4, 6], np.int16, (0.0003, 0))], [T([4, 6], np.int8, (0.004, 2))])
    case("dequantize_uint8", DEQUANTIZE, [T([3, 7], np.uint8, (0.037, 131))], [T([3, 7], np.float32)], tolerance="float")
    case("dequantize_int8", DEQUANTIZE, [T([3, 7], np.int8, (0.0123, -9))], [T([3, 7], np.float32)], tolerance="float")
    case("dequantize_int16", DEQUANTIZE, [T([3, 7], np.int16, (0.00021, 0))], [T([3, 7], np.float32)], tolerance="float")
    case("dequantize_float16", DEQUANTIZE, [T([2, 9], np.float16)], [T([2, 9], np.float32)], tolerance="float",
         low=-70000, high=70000)
    w = rng.integers(-127, 128, size=(4, 3, 2)).astype(np.int8)
    case("dequantize_int8_per_channel_const", DEQUANTIZE,
         [T([4, 3, 2], np.int8, ([0.5, 0.01, 2.0, 0.003], [0, 0, 0, 0], 0), data=w)],
         [T([4, 3, 2], np.float32)], tolerance="float",
         description="constant per-channel int8 weights (model without inputs)")


def split_stack():
    case("split_float_axis1", SPLIT, [const(1), T([2, 6, 3], np.float32)], [out(np.float32)] * 3,
         **opt("SplitOptions", NumSplits=3))
    case("split_int8_neg_axis", SPLIT, [const(-1), T([2, 4], np.int8, (0.1, 0))], [out(np.int8, (0.1, 0))] * 2,
         **opt("SplitOptions", NumSplits=2))
    case("split_v_inferred", SPLIT_V, [T([7, 2], np.float32), const([2, -1, 1]), const(0)], [out(np.float32)] * 3,
         **opt("SplitVOptions", NumSplits=3))
    case("pack_axis1", PACK, [T([2, 3], np.float32)] * 3, [out(np.float32)], **opt("PackOptions", ValuesCount=3, Axis=1))
    case("pack_uint8_neg_axis", PACK, [T([2, 2], np.uint8, (0.1, 1))] * 2, [out(np.uint8, (0.1, 1))],
         **opt("PackOptions", ValuesCount=2, Axis=-1))
    case("unpack_axis0_int32", UNPACK, [T([3, 2, 2], np.int32)], [out(np.int32)] * 3, **opt("UnpackOptions", Num=3, Axis=0))
    case("unpack_neg_axis_float", UNPACK, [T([2, 3, 2], np.float32)], [out(np.float32)] * 2,
         **opt("UnpackOptions", Num=2, Axis=-1))


def indexed_copies():
    case("mirror_pad_reflect", MIRROR_PAD, [T([2, 4, 3], np.float32), const([[1, 0], [3, 2], [2, 2]])], [out(np.float32)],
         **opt("MirrorPadOptions", Mode=0))
    case("mirror_pad_symmetric_int8", MIRROR_PAD, [T([1, 3, 4, 2], np.int8, (0.1, 0)), const([[0, 0], [3, 1], [2, 4], [0, 0]])],
         [out(np.int8, (0.1, 0))], **opt("MirrorPadOptions", Mode=1))
    case("tile_float", TILE, [T([2, 3], np.float32), const([3, 2])], [out(np.float32)])
    case("tile_uint8_int64_multiples", TILE, [T([1, 2, 3], np.uint8, (0.1, 0)), const([2, 1, 3], np.int64)],
         [out(np.uint8, (0.1, 0))])
    case("broadcast_to_float", BROADCAST_TO, [T([3, 1], np.float32), const([2, 3, 4])], [out(np.float32)], version=2)
    case("broadcast_to_int32", BROADCAST_TO, [T([1, 4], np.int32), const([3, 4])], [out(np.int32)], version=2)


def shape_fill_range():
    case("shape_int32", SHAPE, [T([2, 5, 1, 3], np.float32)], [out(np.int32)], **opt("ShapeOptions", OutType=2))
    case("shape_int64", SHAPE, [T([4, 1], np.int8, (0.1, 0))], [out(np.int64)], **opt("ShapeOptions", OutType=4))
    case("fill_float", FILL, [const([2, 3]), T([], np.float32)], [out(np.float32)])
    case("fill_int32_int64_dims", FILL, [const([4], np.int64), T([], np.int32)], [out(np.int32)])
    case("zeros_like_int64", ZEROS_LIKE, [T([2, 3], np.int64)], [out(np.int64)])
    case("range_int32", RANGE, [const(3, shape=[]), const(20, shape=[]), const(4, shape=[])], [out(np.int32)])
    case("range_float_negative", RANGE, [const(1.5, np.float32, shape=[]), const(-2.0, np.float32, shape=[]),
                                         const(-0.3, np.float32, shape=[])], [out(np.float32)])


def casts():
    pairs = [(np.float32, np.int32), (np.float32, np.uint8), (np.int32, np.float32), (np.uint8, np.float32),
             (np.int8, np.int32), (np.float32, np.bool_), (np.bool_, np.float32), (np.int64, np.int32),
             (np.int32, np.int64), (np.int16, np.float32), (np.float32, np.int8),
             (np.int32, np.int8), (np.int32, np.uint8)]
    for a, b in pairs:
        case(f"cast_{np.dtype(a).name}_{np.dtype(b).name}", CAST, [T([3, 5], a)], [T([3, 5], b)],
             low=-200, high=200)


def gathers():
    case("gather_axis0_float", GATHER, [T([5, 3], np.float32), const([4, 0, 2, 2])], [out(np.float32)])
    case("gather_axis_neg1_int8", GATHER, [T([2, 3, 4], np.int8, (0.1, 0)), const([[3, 1], [0, 0]])],
         [out(np.int8, (0.1, 0))], **opt("GatherOptions", Axis=-1))
    case("gather_batch_dims", GATHER, [T([2, 4, 3], np.float32), const([[1, 3], [2, 0]], np.int64)],
         [out(np.float32)], **opt("GatherOptions", Axis=1, BatchDims=1))
    case("gather_nd_float", GATHER_ND, [T([3, 4, 2], np.float32), const([[2, 1], [0, 3], [1, 1]])], [out(np.float32)])
    case("gather_nd_full_depth_int32", GATHER_ND, [T([3, 4], np.int32), const([[[2, 1]], [[0, 3]]])], [out(np.int32)])
    case("scatter_nd_float_duplicates", SCATTER_ND, [const([[1], [3], [1]]), T([3, 2], np.float32), const([5, 2])],
         [out(np.float32)])
    case("scatter_nd_int32", SCATTER_ND, [const([[0, 1], [2, 2]]), T([2], np.int32), const([3, 3])], [out(np.int32)])


def selection():
    case("topk_float", TOPK_V2, [T([3, 10], np.float32), const(4, shape=[])], [out(np.float32), out(np.int32)])
    ties = np.array([[1, 5, 5, 2, 5, 0, 1]], dtype=np.int32)
    case("topk_int32_ties_const", TOPK_V2, [T([1, 7], np.int32, data=ties), const(3, shape=[])],
         [out(np.int32), out(np.int32)], description="ties keep index order; constant input")
    case("topk_uint8", TOPK_V2, [T([2, 6], np.uint8, (0.1, 0)), const(6, shape=[])], [out(np.uint8, (0.1, 0)), out(np.int32)])
    mask = np.array([[True, False, True], [False, False, True]])
    case("where_bool_const", WHERE, [T([2, 3], np.bool_, data=mask)], [out(np.int64)])
    case("where_float_const", WHERE, [T([4], np.float32, data=np.array([0.0, -1.5, 0.0, 2.0], np.float32))], [out(np.int64)])


def densify():
    # 4x4 matrix in 2x2 blocks: block rows dense, block columns CSR (uint8 index vectors).
    block = ([0, 1, 2, 3], [0, 1], [("dense", 2), ("csr", [0, 1, 2], [0, 1], "uint8"), ("dense", 2), ("dense", 2)])
    case("densify_block_csr_float", DENSIFY,
         [T([4, 4], np.float32, data=np.array([1, 0, 2, 3, 4, 5, 6, 0], np.float32), sparsity=block)],
         [T([4, 4], np.float32)], description="block-sparse constant (TFLite sparsity example)")
    # 3x6 int8 CSR rows with uint16 index vectors.
    rows = ([0, 1], [], [("dense", 3), ("csr", [0, 2, 2, 5], [1, 4, 0, 2, 5], "uint16")])
    case("densify_csr_int8", DENSIFY,
         [T([3, 6], np.int8, quant=(0.1, 0), data=np.array([7, -8, 9, 10, -11], np.int8), sparsity=rows)],
         [T([3, 6], np.int8, quant=(0.1, 0))])
    # 2x3x4 float16, traversal order swapping the first two dimensions, int32 index vectors.
    swapped = ([1, 0, 2], [], [("dense", 3), ("dense", 2), ("csr", [0, 1, 1, 3, 4, 4, 6], [3, 0, 2, 1, 0, 3], "int32")])
    values = np.array([0.5, -1.25, 2.0, 65504.0, -0.001, 3.5], np.float16)
    case("densify_traversal_float16", DENSIFY, [T([2, 3, 4], np.float16, data=values, sparsity=swapped)],
         [T([2, 3, 4], np.float16)])


def more_quantization():
    case("quantize_float_int8_per_channel", QUANTIZE, [T([2, 3, 4], np.float32)],
         [T([2, 3, 4], np.int8, ([0.01, 0.02, 0.05], [0, 1, -2], 1))], low=-2, high=2)
    case("quantize_int8_to_int16", QUANTIZE, [T([2, 5], np.int8, (0.05, 3))], [T([2, 5], np.int16, (0.02, 0))])
    case("quantize_int16_to_int16", QUANTIZE, [T([2, 5], np.int16, (0.05, 0))], [T([2, 5], np.int16, (0.02, 0))])
    case("quantize_int16_to_int32", QUANTIZE, [T([2, 5], np.int16, (0.05, 0))], [T([2, 5], np.int32, (0.02, 0))])
    case("quantize_uint8_to_int16", QUANTIZE, [T([2, 5], np.uint8, (0.05, 3))], [T([2, 5], np.int16, (0.02, 0))])
    w = rng.integers(-127, 128, size=(2, 3, 4)).astype(np.int8)
    case("dequantize_int8_per_channel_axis2", DEQUANTIZE,
         [T([2, 3, 4], np.int8, ([0.5, 0.01, 2.0, 0.003], [0, 0, 0, 0], 2), data=w)],
         [T([2, 3, 4], np.float32)], tolerance="float")
    # Large enough to be split across threads (8192-element chunks).
    case("quantize_int8_requantize_large", QUANTIZE, [T([4, 64, 80], np.int8, (0.07, 5))],
         [T([4, 64, 80], np.int8, (0.03, -2))], description="split across threads when run with several")
    case("quantize_float_uint8_large", QUANTIZE, [T([2, 96, 96], np.float32)], [T([2, 96, 96], np.uint8, (0.01, 100))],
         low=-1.5, high=1.5)


def main():
    clear_family(FAMILY)
    for section in (concatenation, shapes, transpose, pad, slices, resize, depth_space, quantization,
                    split_stack, indexed_copies, shape_fill_range, casts, gathers, selection, densify,
                    more_quantization):
        section()


if __name__ == "__main__":
    main()

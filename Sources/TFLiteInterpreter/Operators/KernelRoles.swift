/// The parts a kernel plays in the executor's passes beyond `prepare` and `invoke`: each one is
/// the kernel itself seen through the protocol of that part, or nil when it does not play it.
///
/// The passes read these instead of casting (`kernel as? FloatClampFusable`): the first dynamic
/// cast of a kernel type to a protocol scans every conformance record the process has loaded,
/// which cost about 1.5 ms of a process's first efficientnet_lite0 load (Intel Xeon, perf
/// samples). A conversion written in the kernel's own `roles` is resolved when it is compiled.
/// A kernel names only the roles it plays (`KernelRoles(floatClampFusable: self)`).
struct KernelRoles {
    /// A 256-entry table from the kernel's one 8-bit input to its output (``ByteMapFusion``).
    var byteMap: (any ByteMapKernel)? = nil
    /// An output code for each pair of input codes (``ByteMapFusion``).
    var codePair: (any CodePairKernel)? = nil
    /// A float clamp that a producer can take over (``ClampFusion``).
    var floatClamp: (any FloatClampKernel)? = nil
    /// A producer that can take over a following clamp (``ClampFusion``).
    var floatClampFusable: (any FloatClampFusable)? = nil
    /// A float ADD that a producer can take over (``ResidualAddFusion``).
    var floatResidualAdd: (any FloatResidualAddKernel)? = nil
    /// A float LOGISTIC that can take over the MUL by its input after it (``SiLUFusion``).
    var logisticProductFusable: (any LogisticProductFusable)? = nil
    /// A float MUL of two same-shape operands without a clamp (``SiLUFusion``).
    var floatProduct: (any FloatProductKernel)? = nil
    /// A producer that can take over a following ADD (``ResidualAddFusion``).
    var residualAddFusable: (any ResidualAddFusable)? = nil
    /// A producer that can apply a following byte table to its output (``OutputByteMapFusion``).
    var outputByteMapFusable: (any OutputByteMapFusable)? = nil
    /// A constant PAD whose padding a convolution reading it can apply itself (``PadFusion``).
    var constantPad: (any ConstantPadKernel)? = nil
    /// A convolution that can apply the padding of the PAD it reads (``PadFusion``).
    var padFoldable: (any PadFoldable)? = nil
    /// A kernel that needs its executor (``HostedKernel``).
    var hosted: (any HostedKernel)? = nil
    /// A kernel that finishes its plan once fusion has decided that it runs (``PlanFinishingKernel``).
    var planFinishing: (any PlanFinishingKernel)? = nil
}

extension OperatorKernel {
    /// No roles: the kernel only prepares and invokes.
    var roles: KernelRoles { KernelRoles() }
}

extension HostedKernel {
    /// The hosted role (a kernel that needs its executor plays no other).
    var roles: KernelRoles { KernelRoles(hosted: self) }
}

/// A hardware delegate, as TensorFlowLiteSwift spells the type, so that code passing
/// delegates to ``Interpreter/init(modelPath:options:delegates:)`` compiles unchanged.
///
/// **Delegates are ignored.** This engine runs every operator with its own Swift kernels on
/// the CPU (generated for the CPU found at first use); there is no GPU, Core ML or NNAPI
/// back end to hand a graph to. Passing a delegate changes nothing: the interpreter runs the
/// whole model itself and gives the results it gives without one. TensorFlowLiteSwift's
/// delegates (`MetalDelegate`, `CoreMLDelegate`) are not provided; a type of your own that
/// conforms (it needs no members) stands in for one where ported code passes a delegate.
public protocol Delegate: AnyObject {}

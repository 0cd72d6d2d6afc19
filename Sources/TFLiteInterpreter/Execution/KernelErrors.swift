/// Runs one kernel step and turns any error that is not already an ``InterpreterError`` into
/// one that names the operator, so callers always see a typed error.
enum KernelErrors {
    /// Errors at prepare (and constant folding) are model errors.
    static func preparing<R>(_ name: @autoclosure () -> String, _ body: () throws -> R) throws -> R {
        do { return try body() } catch let error as InterpreterError { throw error } catch {
            throw InterpreterError.invalidModel("\(name()): \(error)")
        }
    }

    /// Errors at invoke are invocation failures.
    static func invoking<R>(_ name: @autoclosure () -> String, _ body: () throws -> R) throws -> R {
        do { return try body() } catch let error as InterpreterError { throw error } catch {
            throw InterpreterError.invocationFailed("\(name()): \(error)")
        }
    }
}

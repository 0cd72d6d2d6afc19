import ArgumentParser
import Foundation

/// An error message for the terminal. Foundation's file errors (`NSCocoaErrorDomain` with an
/// underlying POSIX error) become "PATH: reason"; the engine's typed errors keep their own
/// descriptions.
struct ReadableError: Error, CustomStringConvertible {
    let description: String

    /// The readable form of `error`, or nil when ArgumentParser's own rendering is right
    /// (usage errors, exit codes, help requests).
    static func wrapping(_ error: any Error) -> ReadableError? {
        if error is ValidationError || error is ExitCode || error is CleanExit { return nil }
        let nsError = error as NSError
        guard nsError.domain == NSCocoaErrorDomain || nsError.domain == NSPOSIXErrorDomain else { return nil }
        let path = (nsError.userInfo[NSFilePathErrorKey] as? String)
            ?? (nsError.userInfo[NSURLErrorKey] as? URL)?.path
        return ReadableError(description: [path, reason(nsError)].compactMap { $0 }.joined(separator: ": "))
    }

    /// The system's reason: the underlying POSIX error's text when there is one.
    private static func reason(_ error: NSError) -> String {
        if error.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(error.code))) }
        if let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError { return reason(underlying) }
        switch CocoaError.Code(rawValue: error.code) {
        case .fileNoSuchFile, .fileReadNoSuchFile: return "no such file or directory"
        case .fileReadNoPermission, .fileWriteNoPermission: return "permission denied"
        case .fileWriteOutOfSpace: return "no space left on device"
        case .fileWriteFileExists: return "a file already exists there (expected a directory)"
        case .fileWriteVolumeReadOnly: return "read-only file system"
        case .fileReadCorruptFile: return "the file is damaged"
        default: return "file operation failed (code \(error.code))"
        }
    }
}

extension LiteVisionCommand {
    /// Runs the command, printing file-system errors as "PATH: reason" instead of raw
    /// `NSError` dumps.
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: ReadableError.wrapping(error) ?? error)
        }
    }
}

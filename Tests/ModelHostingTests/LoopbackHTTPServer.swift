import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A small HTTP/1.1 server on 127.0.0.1 (a kernel-chosen port) for tests: one thread per
/// connection, `Connection: close` on every response, and scripted misbehaviour (dropping the
/// connection mid-body, stalling). Every loop is bounded by the stop flag and socket timeouts.
final class LoopbackHTTPServer: @unchecked Sendable {
    /// A parsed request head.
    struct Request: Sendable {
        var method: String
        /// The path without the query.
        var path: String
        /// The query (after `?`), empty when absent.
        var query: String
        /// Header fields with lower-cased names.
        var headers: [String: String]
    }

    /// What to send back.
    struct Response: Sendable {
        var status: Int
        var headers: [(String, String)] = []
        var body: [UInt8] = []
        /// Close the connection after this many body bytes.
        var dropAfterBytes: Int?
        /// After `stallAfterBytes` body bytes, send nothing for `stallSeconds`.
        var stallAfterBytes: Int?
        var stallSeconds: Double = 0
        /// Send this `Content-Length` instead of the body's real length.
        var contentLengthOverride: Int?
        /// Send the body one byte at a time at this many bytes per second (a trickling server).
        var trickleBytesPerSecond: Double?

        init(status: Int, headers: [(String, String)] = [], body: [UInt8] = []) {
            self.status = status
            self.headers = headers
            self.body = body
        }
    }

    typealias Handler = @Sendable (Request) -> Response

    private let handler: Handler
    private let listener: Int32
    private let lock = NSLock()
    private var stopped = false
    private var log: [Request] = []
    /// The port the server listens on.
    let port: UInt16

    /// Starts listening and accepting in the background.
    init(handler: @escaping Handler) throws {
        self.handler = handler
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw ServerError("socket failed") }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(fd, 32) == 0 else { close(fd); throw ServerError("bind/listen failed") }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        listener = fd
        port = UInt16(bigEndian: actual.sin_port)
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    /// `http://127.0.0.1:<port>/`.
    var baseURL: URL { URL(string: "http://127.0.0.1:\(port)/")! }

    /// Requests received so far, in arrival order.
    var requests: [Request] {
        lock.lock(); defer { lock.unlock() }
        return log
    }

    /// Stops accepting; running connections end at their next check.
    func stop() {
        lock.lock()
        let wasStopped = stopped
        stopped = true
        lock.unlock()
        if !wasStopped { shutdown(listener, Int32(SHUT_RDWR)) }
    }

    private var isStopped: Bool {
        lock.lock(); defer { lock.unlock() }
        return stopped
    }

    private func acceptLoop() {
        defer { close(listener) }
        while !isStopped {
            var descriptor = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, 100)
            if ready <= 0 { continue }
            let connection = accept(listener, nil, nil)
            if connection < 0 { continue }
            var timeout = timeval(tv_sec: 5, tv_usec: 0)
            setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            setsockopt(connection, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            let thread = Thread { [self] in serve(connection) }
            thread.start()
        }
    }

    private func serve(_ connection: Int32) {
        defer { close(connection) }
        guard let request = readRequest(connection) else { return }
        lock.lock(); log.append(request); lock.unlock()
        let response = handler(request)
        var head = "HTTP/1.1 \(response.status) \(reason(response.status))\r\n"
        let bodyLength = response.contentLengthOverride ?? response.body.count
        var hasLength = false
        for (name, value) in response.headers {
            if name.lowercased() == "content-length" { hasLength = true }
            head += "\(name): \(value)\r\n"
        }
        if !hasLength && response.status != 304 { head += "Content-Length: \(bodyLength)\r\n" }
        head += "Connection: close\r\n\r\n"
        guard send(connection, Array(head.utf8)) else { return }
        if request.method == "HEAD" || response.status == 304 { return }
        var body = response.body[...]
        if let drop = response.dropAfterBytes { body = body.prefix(drop) }
        if let stallAt = response.stallAfterBytes {
            guard send(connection, Array(body.prefix(stallAt))) else { return }
            let end = Date().addingTimeInterval(response.stallSeconds)
            while Date() < end && !isStopped { usleep(20_000) }
            if isStopped { return }
            body = body.dropFirst(stallAt)
        }
        if let rate = response.trickleBytesPerSecond {
            for byte in body {
                guard !isStopped, send(connection, [byte]) else { return }
                usleep(useconds_t(1e6 / rate))
            }
            return
        }
        _ = send(connection, Array(body))
    }

    private func readRequest(_ connection: Int32) -> Request? {
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        let terminator: [UInt8] = [13, 10, 13, 10]
        while buffer.count < 65536 {
            let count = recv(connection, &chunk, chunk.count, 0)
            if count <= 0 { return nil }
            buffer.append(contentsOf: chunk[0..<count])
            if let end = firstRange(of: terminator, in: buffer) {
                let text = String(decoding: buffer[0..<end], as: UTF8.self)
                var lines = text.components(separatedBy: "\r\n")
                let requestLine = lines.removeFirst().split(separator: " ")
                guard requestLine.count >= 2 else { return nil }
                var headers: [String: String] = [:]
                for line in lines {
                    guard let colon = line.firstIndex(of: ":") else { continue }
                    headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                }
                let target = requestLine[1].split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
                return Request(method: String(requestLine[0]), path: String(target[0]),
                               query: target.count > 1 ? String(target[1]) : "", headers: headers)
            }
        }
        return nil
    }

    private func firstRange(of pattern: [UInt8], in bytes: [UInt8]) -> Int? {
        guard bytes.count >= pattern.count else { return nil }
        for start in 0...(bytes.count - pattern.count) where Array(bytes[start..<start + pattern.count]) == pattern {
            return start
        }
        return nil
    }

    private func send(_ connection: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            if isStopped { return false }
            #if canImport(Glibc)
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            #else
            let sent = bytes[offset...].withUnsafeBytes { Darwin.send(connection, $0.baseAddress, $0.count, 0) }
            #endif
            if sent <= 0 { return false }
            offset += sent
        }
        return true
    }

    private func reason(_ status: Int) -> String {
        switch status {
        case 200: return "OK"
        case 206: return "Partial Content"
        case 302: return "Found"
        case 304: return "Not Modified"
        case 404: return "Not Found"
        case 416: return "Range Not Satisfiable"
        case 500: return "Internal Server Error"
        default: return "Status"
        }
    }

    struct ServerError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}

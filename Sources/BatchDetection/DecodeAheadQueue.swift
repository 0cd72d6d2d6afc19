import Foundation

/// Produces values on a background thread ahead of the consumer, holding at most `capacity`
/// finished values, so the consumer's work (inference) overlaps the producer's (reading and
/// decoding the next images) while memory stays bounded by `capacity` values in flight.
///
/// Values come out in the order produced. `capacity == 0` produces inline on the consumer's
/// thread (no overlap; the baseline the benchmark compares against).
public final class DecodeAheadQueue<Element: Sendable>: @unchecked Sendable {
    /// The producer: the next value, nil at the end, or an error that ends the sequence.
    public typealias Producer = () throws -> Element?

    private let capacity: Int
    private let condition = NSCondition()
    // Guarded by `condition`.
    private var ready: [Element] = []
    private var finished = false
    private var failure: (any Error)?
    private var cancelled = false
    // Used only by the producer thread (or the consumer when capacity is 0).
    private let producer: Producer

    /// Starts producing (on a new thread when `capacity > 0`).
    /// The producer is called from one thread at a time only.
    public init(capacity: Int, producer: @escaping Producer) {
        precondition(capacity >= 0, "capacity must not be negative")
        self.capacity = capacity
        self.producer = producer
        guard capacity > 0 else { return }
        let thread = Thread { [self] in produceAll() }
        thread.name = "litevision.decode-ahead"
        thread.start()
    }

    /// The next value, blocking until it is ready; nil after the last one.
    /// - Throws: the producer's error, after every value produced before it.
    public func next() throws -> Element? {
        guard capacity > 0 else {
            if finished { return nil }
            let value = try producer()
            if value == nil { finished = true }
            return value
        }
        condition.lock(); defer { condition.unlock() }
        while ready.isEmpty && !finished { condition.wait() }
        guard ready.isEmpty else {
            let value = ready.removeFirst()
            condition.broadcast()
            return value
        }
        if let failure { throw failure }
        return nil
    }

    /// Stops the producer after the value it is working on (for a consumer that gives up early).
    public func cancel() {
        condition.lock(); defer { condition.unlock() }
        cancelled = true
        ready.removeAll()
        condition.broadcast()
    }

    private func produceAll() {
        while true {
            condition.lock()
            while ready.count >= capacity && !cancelled { condition.wait() }
            let stop = cancelled
            condition.unlock()
            if stop { break }
            let value: Element?
            do {
                value = try producer()
            } catch {
                condition.lock()
                failure = error
                finished = true
                condition.broadcast()
                condition.unlock()
                return
            }
            condition.lock()
            if let value, !cancelled { ready.append(value) } else { finished = true }
            condition.broadcast()
            let done = finished || cancelled
            condition.unlock()
            if done { return }
        }
        condition.lock()
        finished = true
        condition.broadcast()
        condition.unlock()
    }
}

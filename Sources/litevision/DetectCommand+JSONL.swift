import ArgumentParser
import BatchDetection
import Foundation
import ObjectDetection

extension DetectCommand {
    /// `detect --jsonl`: one JSON record per work item, models loaded once, images decoded ahead.
    /// Exit codes as documented on `--jsonl` (``BatchExitCode``).
    func runJSONL() throws {
        let options = batch
        guard images.isEmpty else {
            fail(.invalidOptions("--jsonl reads work items from standard input or --input; do not list images"))
        }
        if json || annotate != nil { fail(.invalidOptions("--json and --annotate do not apply to --jsonl")) }
        let shard: Shard
        var loader: ImageFileLoader
        do {
            shard = try Shard.resolve(option: options.shard, shardCount: options.shardCount,
                                      environment: ProcessInfo.processInfo.environment)
            loader = ImageFileLoader(limits: detection.imageLimits, orientation: try detection.imageOrientation())
        } catch let error as BatchRunError {
            fail(error)
        } catch {
            fail(.invalidOptions("\(error)"))
        }
        if let directory = options.output, ShardOutputFile.isComplete(in: directory, shard: shard) {
            log("shard \(shard): \(ShardOutputFile.finalPath(in: directory, shard: shard)) is complete; nothing to do")
            return
        }
        let detector: ObjectDetector
        do {
            detector = try detection.makeDetector()
        } catch let error as ValidationError {
            fail(.invalidOptions(error.message))
        } catch {
            fail(.modelUnavailable("\(error)"))
        }
        loader.minimumShortSide = detector.preferredMinimumShortSide
        do {
            let reader = try options.input.map { $0 == "-" ? WorkItemReader(descriptor: 0) : try WorkItemReader(path: $0) }
                ?? WorkItemReader(descriptor: 0)
            let progress = BatchProgress.onTerminal(label: "shard \(shard)")
            let expected = try progress == nil ? nil : reader.countRemainingItems().map { total in
                total > shard.index ? (total - shard.index + shard.count - 1) / shard.count : 0
            }
            let writer: any RecordWriter = try options.output.map { try ShardOutputFile(directory: $0, shard: shard) }
                ?? LineStreamWriter()
            signal(SIGPIPE, SIG_IGN)   // a closed pipe becomes a write error (transient exit), not a silent kill
            let runner = BatchRunner(detector: detector, loader: loader, shard: shard, prefetch: options.prefetch)
            let statistics = try runner.run(reader, expectedItems: expected, emit: { outcome in
                let line: String
                do { line = try DetectionJSON.line(outcome) } catch {
                    throw BatchRunError.outputFailed("cannot encode the record of \(outcome.id): \(error)")
                }
                try writer.write(line: line)
            }, progress: { progress?.update($0) })
            try writer.finish()
            progress?.finish(statistics)
            log(String(format: "shard %@: %d items, %d errors, %.1f items/s", shard.description, statistics.items,
                       statistics.errors, statistics.wallSeconds > 0 ? Double(statistics.items) / statistics.wallSeconds : 0))
        } catch let error as BatchRunError {
            fail(error)
        } catch {
            fail(.outputFailed("\(error)"))
        }
    }

    /// Reports a run failure on standard error and exits with its code (64 permanent, 75 transient).
    private func fail(_ error: BatchRunError) -> Never {
        log(error.description)
        Foundation.exit(error.exitCode)
    }

    private func log(_ message: String) {
        FileHandle.standardError.write(Data(("litevision: " + message + "\n").utf8))
    }
}

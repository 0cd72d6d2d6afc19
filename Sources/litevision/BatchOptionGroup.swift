import ArgumentParser
import BatchDetection

/// The streaming batch options of `detect`: `--jsonl` with its input, shard and output.
struct BatchOptionGroup: ParsableArguments {
    @Flag(help: ArgumentHelp(
        "Stream mode for batch jobs: read work items from standard input (a path, or {\"id\": ..., \"path\": ...} per line) and write one JSON record per item to standard output.",
        discussion: "Exit codes: 0 every item has a record (error records included); 64 permanent failure (bad options, model missing or invalid, work-item list missing); 75 transient failure (results could not be written)."))
    var jsonl = false

    @Option(help: "With --jsonl: read the work items from this file instead of standard input ('-' is standard input).")
    var input: String?

    @Option(help: "With --jsonl: process only shard I of N (items whose position k in the list has k % N == I). Default: JOB_COMPLETION_INDEX with --shard-count or LITEVISION_SHARD_COUNT, else every item.")
    var shard: String?

    @Option(help: "With --jsonl: the number of shards when the index comes from JOB_COMPLETION_INDEX (default: $LITEVISION_SHARD_COUNT).")
    var shardCount: Int?

    @Option(help: "With --jsonl: write the records to DIR/part-I.jsonl (atomically, when the shard is done) instead of standard output; a shard whose file exists is skipped.")
    var output: String?

    @Option(help: "With --jsonl: images decoded ahead of inference (0: no decode-ahead).")
    var prefetch: Int = 2

    /// Rejects batch options given without `--jsonl`, and malformed values.
    func validate() throws {
        if !jsonl, input != nil || shard != nil || shardCount != nil || output != nil {
            throw ValidationError("--input, --shard, --shard-count and --output need --jsonl")
        }
        if prefetch < 0 || prefetch > 64 { throw ValidationError("--prefetch must be in 0...64") }
    }
}

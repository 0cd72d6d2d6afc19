import TFLiteInterpreter

extension OperatorTypeTime {
    /// Aggregates an interpreter's per-operator profile by operator name, slowest first.
    static func summarize(_ profile: [OperatorProfile]) -> [OperatorTypeTime] {
        var byName: [String: (count: Int, milliseconds: Double)] = [:]
        for entry in profile {
            byName[entry.name, default: (0, 0)].count += 1
            byName[entry.name, default: (0, 0)].milliseconds += entry.averageMilliseconds
        }
        let total = byName.values.reduce(0) { $0 + $1.milliseconds }
        return byName.map { name, value in
            OperatorTypeTime(name: name, count: value.count, milliseconds: value.milliseconds,
                             percent: total > 0 ? 100 * value.milliseconds / total : 0)
        }.sorted { $0.milliseconds > $1.milliseconds }
    }
}

extension OperatorTime {
    /// The `count` slowest operators of an interpreter's per-operator profile, slowest first.
    static func slowest(_ profile: [OperatorProfile], count: Int) -> [OperatorTime] {
        let total = profile.reduce(0) { $0 + $1.averageMilliseconds }
        return profile.sorted { $0.averageMilliseconds > $1.averageMilliseconds }.prefix(count).map {
            OperatorTime(position: $0.position, name: $0.name, outputShape: $0.outputShape,
                         milliseconds: $0.averageMilliseconds,
                         percent: total > 0 ? 100 * $0.averageMilliseconds / total : 0)
        }
    }
}

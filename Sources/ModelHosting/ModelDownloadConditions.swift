/// Network conditions a download may use, mirroring the SDK's `ModelDownloadConditions`.
///
/// What each flag does depends on the platform, because it is handed to `URLSession`:
///
/// | flag | Apple platforms | Linux (FoundationNetworking) |
/// |---|---|---|
/// | ``allowsCellularAccess`` | `URLSessionConfiguration.allowsCellularAccess`: `false` keeps the download off cellular interfaces | recorded, no effect (libcurl has no notion of cellular) |
/// | ``allowsExpensiveNetworkAccess`` | `allowsExpensiveNetworkAccess`: `false` avoids interfaces the system marks expensive (cellular, personal hotspot) | recorded, no effect (not supported by FoundationNetworking) |
/// | ``allowsConstrainedNetworkAccess`` | `allowsConstrainedNetworkAccess`: `false` avoids Low Data Mode interfaces | recorded, no effect |
/// | ``allowsBackgroundDownloading`` | recorded; the download runs in-process and continues while the process runs (also when the object that asked for it is gone), but an app that is suspended pauses it and one that is terminated loses the transfer — the partial file is kept and the next ``ModelManager/download(_:conditions:)`` resumes it with a range request | recorded, no effect: a Linux process has no foreground/background state |
///
/// When a condition forbids every available interface on Apple platforms, the request fails
/// with a network error and the download reports failure (it does not wait for a better network).
public struct ModelDownloadConditions: Sendable, Hashable {
    /// Whether cellular interfaces may be used.
    public var allowsCellularAccess: Bool
    /// Whether interfaces the system considers expensive may be used.
    public var allowsExpensiveNetworkAccess: Bool
    /// Whether interfaces in Low Data Mode may be used.
    public var allowsConstrainedNetworkAccess: Bool
    /// Whether the download may continue while the app is in the background (see the table).
    public var allowsBackgroundDownloading: Bool

    /// Conditions; by default everything is allowed except background downloading, as in the SDK.
    public init(allowsCellularAccess: Bool = true,
                allowsExpensiveNetworkAccess: Bool = true,
                allowsConstrainedNetworkAccess: Bool = true,
                allowsBackgroundDownloading: Bool = false) {
        self.allowsCellularAccess = allowsCellularAccess
        self.allowsExpensiveNetworkAccess = allowsExpensiveNetworkAccess
        self.allowsConstrainedNetworkAccess = allowsConstrainedNetworkAccess
        self.allowsBackgroundDownloading = allowsBackgroundDownloading
    }
}

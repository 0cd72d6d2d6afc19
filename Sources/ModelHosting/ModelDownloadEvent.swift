import Foundation

/// The outcome of one download, delivered by ``ModelManager/events()`` and as a notification.
public enum ModelDownloadEvent: Sendable {
    /// The model is downloaded and verified (or was already current); `path` is its file.
    case succeeded(model: RemoteModel, path: String)
    /// The download failed; the previously downloaded version, if any, is still in place.
    case failed(model: RemoteModel, error: ModelHostingError)

    /// The model the event is about.
    public var model: RemoteModel {
        switch self {
        case let .succeeded(model, _), let .failed(model, _): return model
        }
    }
}

extension Notification.Name {
    /// Posted by a ``ModelManager`` (the notification's `object`) when a download succeeded.
    /// `userInfo[ModelDownloadUserInfoKey.remoteModel.rawValue]` is the ``RemoteModel``.
    public static let modelDownloadDidSucceed = Notification.Name("LiteVisionModelDownloadDidSucceed")
    /// Posted by a ``ModelManager`` when a download failed.
    /// `userInfo[ModelDownloadUserInfoKey.remoteModel.rawValue]` is the ``RemoteModel`` and
    /// `userInfo[ModelDownloadUserInfoKey.error.rawValue]` the ``ModelHostingError``.
    public static let modelDownloadDidFail = Notification.Name("LiteVisionModelDownloadDidFail")
}

/// Keys of the `userInfo` of ``Foundation/Notification/Name/modelDownloadDidSucceed`` and
/// ``Foundation/Notification/Name/modelDownloadDidFail`` (the SDK's names).
public enum ModelDownloadUserInfoKey: String, Sendable {
    /// The ``RemoteModel``.
    case remoteModel
    /// The ``ModelHostingError`` (failure only).
    case error
    /// The downloaded file's path as a `String` (success only).
    case modelFilePath
}

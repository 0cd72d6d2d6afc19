/// Where a track is in its life: `tentative` → `confirmed` ⇄ `lost` → deleted.
///
/// - A new detection that matches no track starts a **tentative** track.
/// - After ``TrackerConfiguration/minimumHitsToConfirm`` matched frames it is **confirmed**
///   and reported with its ID. A tentative track that misses a frame is deleted.
/// - A confirmed track that misses a frame is **lost**: it is not reported, but keeps its
///   ID, motion estimate and appearance for the lost-track window
///   (``TrackerConfiguration/lostTrackWindow`` seconds or ``TrackerConfiguration/maximumMissedFrames``
///   frames, whichever is longer). A detection that re-identifies it (by motion or appearance)
///   makes it confirmed again with the same ID. After the window it is deleted.
public enum TrackState: String, Hashable, Sendable {
    /// Seen, but not yet often enough to be reported.
    case tentative
    /// Reported with a stable ID.
    case confirmed
    /// Temporarily unseen; can be re-identified.
    case lost
}

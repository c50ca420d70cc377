/// A value a slot or a `set:` gives a field.
public enum SlotValue: Sendable, Hashable, CustomStringConvertible {
    case text(String)
    case number(Double)
    case flag(Bool)
    /// A release date range, ISO 8601 days.
    case dateRange(start: String, end: String)

    public var description: String {
        switch self {
        case let .text(s): return "\"\(s)\""
        case let .number(n): return n == n.rounded() && abs(n) < 1e15 ? String(Int(n)) : String(n)
        case let .flag(b): return String(b)
        case let .dateRange(s, e): return "\(s)…\(e)"
        }
    }

    var number: Double? { if case let .number(n) = self { return n }; return nil }
    var text: String? { if case let .text(s) = self { return s }; return nil }
}

/// The fields of a result a slot can fill: the contract's keys, flattened (`playlistName` is
/// `mediaDestination.playlistName`).
public enum Field: String, Sendable, CaseIterable, Hashable {
    case mediaType, mediaName, artistName, albumName, genreNames, moodNames, releaseDate, sortOrder, reference,
         mediaIdentifier
    case playShuffled, resumePlayback, playbackRepeatMode, playbackQueueLocation, playbackSpeed
    case playlistName, library
    case affinityType, appName, command, interval, repeatMode, shuffle, playbackRate, property
    /// Extensions (not SiriKit): the volume asked for, and where to play (`target.area`, `target.device`).
    case volume, volumeChange, volumeStep, area, device

    /// The case's place among the cases: a field without a payload is stored as it, one byte.
    @inline(__always) var ordinal: UInt8 { withUnsafeBytes(of: self) { $0[0] } }

    // Compared and hashed by that byte, not by the raw string (the default of a `String` enum): a reading's
    // fields are hashed for every candidate the parser builds.
    public static func == (a: Field, b: Field) -> Bool { a.ordinal == b.ordinal }
    public func hash(into hasher: inout Hasher) { hasher.combine(ordinal) }

    /// Fields that collect every value instead of taking one.
    var isList: Bool { self == .genreNames || self == .moodNames }

    /// Inside `mediaSearch`.
    var isMediaSearch: Bool {
        switch self {
        case .mediaType, .mediaName, .artistName, .albumName, .genreNames, .moodNames, .releaseDate, .sortOrder,
             .reference, .mediaIdentifier: return true
        default: return false
        }
    }

    /// The values the contract allows, for the fields that take names from a closed set (their types in
    /// `ClosedValues.swift`).
    var allowedValues: Set<String>? {
        switch self {
        case .mediaType: return MediaItemType.names
        case .sortOrder: return MediaSortOrder.names
        case .reference: return MediaReference.names
        case .playbackRepeatMode, .repeatMode: return PlaybackRepeatMode.names
        case .playbackQueueLocation: return PlaybackQueueLocation.names
        case .affinityType: return MediaAffinityType.names
        case .command: return RemoteCommand.names
        case .volumeChange: return VolumeChange.names
        case .property: return NowPlayingProperty.names
        default: return nil
        }
    }

    /// The key of the field's span in a result: its name, or its path under the object that holds it.
    var spanKey: String {
        switch self {
        case .playlistName, .library: return "mediaDestination"
        case .area: return "target.area"
        case .device: return "target.device"
        default: return rawValue
        }
    }

    /// The kind of value the field holds.
    enum Kind { case text, number, flag, dateRange }
    /// The numbers a number field may hold, when the contract bounds them: a volume is 0-100, so a reading
    /// that makes "103.3" a volume ("metti la radio sul 103.3") gives way to the next one; a speed is a
    /// quarter to four times. Nil: unbounded.
    var allowedNumbers: ClosedRange<Double>? {
        switch self {
        case .volume, .volumeStep: return 0...100
        // Players play from a quarter to four times the normal speed: "mets à vingt" is no rate.
        case .playbackSpeed, .playbackRate: return 0.25...4
        default: return nil
        }
    }

    var kind: Kind {
        switch self {
        case .playShuffled, .resumePlayback, .library, .shuffle: return .flag
        case .playbackSpeed, .interval, .playbackRate, .volume, .volumeStep: return .number
        case .releaseDate: return .dateRange
        default: return .text
        }
    }
}

/// What a media request asks for: a result's `intent` (which is nil when the utterance is not a media
/// request). The raw values are the contract's JSON strings, SiriKit's and MediaPlayer's type names.
public enum MediaIntent: String, Codable, Sendable, CaseIterable {
    /// `INPlayMediaIntent`: play something ("play the latest episode of The Daily").
    case play = "INPlayMediaIntent"
    /// `INAddMediaIntent`: add something to a playlist or the library.
    case add = "INAddMediaIntent"
    /// `INUpdateMediaAffinityIntent`: like or dislike something.
    case updateAffinity = "INUpdateMediaAffinityIntent"
    /// `INSearchForMediaIntent`: find something without playing it.
    case search = "INSearchForMediaIntent"
    /// `MPRemoteCommand`: a Now Playing command (`command` says which: pause, skip forward, volume …).
    case remoteCommand = "MPRemoteCommand"
    /// `MPNowPlayingInfo`: a question about what is playing (`property` says which).
    case nowPlayingInfo = "MPNowPlayingInfo"
}

/// The intents a grammar sentence may name: the contract's, plus `NotMedia` for sentences that are
/// recognised as something else. Grammar machinery, not API: a result's intent is a `MediaIntent` or nil.
package enum IntentName: String, Sendable, CaseIterable {
    case play = "INPlayMediaIntent"
    case add = "INAddMediaIntent"
    case updateAffinity = "INUpdateMediaAffinityIntent"
    case search = "INSearchForMediaIntent"
    case remoteCommand = "MPRemoteCommand"
    case nowPlayingInfo = "MPNowPlayingInfo"
    case notMedia = "NotMedia"

    /// The result's intent: nil for `NotMedia`.
    var mediaIntent: MediaIntent? { MediaIntent(rawValue: rawValue) }

    /// The four SiriKit intents that carry an `INMediaSearch`.
    var hasMediaSearch: Bool { self == .play || self == .add || self == .updateAffinity || self == .search }
}

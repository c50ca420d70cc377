/// The contract's closed sets of values, as types: a result's `mediaType`, `sortOrder`, `command` … can hold
/// nothing else, and a grammar that sets another value is refused when it loads (`Field.allowedValues` is
/// read from these). Each case's raw value is its JSON string, so the JSON is the contract's.
public protocol ClosedValue: RawRepresentable, CaseIterable, Codable, Hashable, Sendable where RawValue == String {}

/// An object of the result's JSON (`MediaSearch`, `Target`, `Spans` …): optional ones are written through
/// the keyed container's overloads below, which skip an absent one at once.
protocol ResultPart: Encodable {}

extension DateRange: ResultPart {}
extension MediaSearch: ResultPart {}
extension MediaDestination: ResultPart {}
extension Target: ResultPart {}
extension VocabularyUse: ResultPart {}
extension Explanation: ResultPart {}
extension Explanation.Word: ResultPart {}
extension Spans: ResultPart {}
extension ParseResult: ResultPart {}
extension Resolution: ResultPart {}
extension ResolvedItem: ResultPart {}

extension ClosedValue {
    /// Every value's JSON string.
    static var names: Set<String> { Set(allCases.map(\.rawValue)) }
}

/// What kind of item a request is about: `mediaSearch.mediaType` (SiriKit's `INMediaItemType`, plus `station`,
/// `music` and `news`, which the contract adds).
public enum MediaItemType: String, ClosedValue {
    case song, album, artist, genre, playlist, podcastShow, podcastEpisode, podcastPlaylist, musicStation, audioBook,
         movie, tvShow, tvShowEpisode, musicVideo, podcastStation, radioStation, station, music,
         algorithmicRadioStation, news
}

/// Which of several items: `mediaSearch.sortOrder` ("the newest", "the most popular").
public enum MediaSortOrder: String, ClosedValue {
    case newest, oldest, best, worst, popular, unpopular, trending, recommended
}

/// Whose or which item: `mediaSearch.reference` ("this song" is `currentlyPlaying`, "my playlist" is `my`).
public enum MediaReference: String, ClosedValue {
    case currentlyPlaying, my
}

/// `playbackRepeatMode` of a play request and `repeatMode` of `changeRepeatMode`. SiriKit's name of "no
/// repeat" is `none`, which is the JSON string; the case is `off`, since `.none` would read as an optional's.
public enum PlaybackRepeatMode: String, ClosedValue {
    case off = "none"
    case one, all
}

/// Where a played item goes in the queue: `playbackQueueLocation` ("play it next").
public enum PlaybackQueueLocation: String, ClosedValue {
    case now, next, later
}

/// `affinityType` of an `INUpdateMediaAffinityIntent`.
public enum MediaAffinityType: String, ClosedValue {
    case like, dislike
}

/// A Now Playing command: `command` of an `MPRemoteCommand` result (MediaPlayer's command names, plus the
/// volume commands the contract adds).
public enum RemoteCommand: String, ClosedValue {
    case pause, play, stop, togglePlayPause, nextTrack, previousTrack, skipForward, skipBackward, seekForward,
         seekBackward, changeRepeatMode, changeShuffleMode, changePlaybackRate, changeVolume, mute, unmute
}

/// A relative volume change: `volumeChange` (an extension of the contract).
public enum VolumeChange: String, ClosedValue {
    case up, down
}

/// What a Now Playing question asks about: `property` of an `MPNowPlayingInfo` result.
public enum NowPlayingProperty: String, ClosedValue {
    case title, artist, albumTitle
}

/// A closed value goes into the JSON as its raw text, written straight into the keyed container; a list of
/// names string by string. Through the generic path Foundation's `JSONEncoder` makes an encoder object for
/// each value, and a result's enums and lists were a good part of the CLI's time. Internal: the synthesized
/// coding of this module's types picks these (the more specific overload); the JSON is the same.
extension KeyedEncodingContainer {
    mutating func encodeIfPresent<V: ClosedValue>(_ value: V?, forKey key: Key) throws {
        try encodeIfPresent(value?.rawValue, forKey: key)
    }

    /// A list of names (`genreNames`, `moodNames`), one string at a time into a nested list.
    mutating func encodeIfPresent(_ value: [String]?, forKey key: Key) throws {
        guard let value else { return }
        var list = nestedUnkeyedContainer(forKey: key)
        for name in value { try list.encode(name) }
    }

    /// A part of a result (`ResultPart`) that is absent costs nothing: the generic `encodeIfPresent` passes
    /// even a nil through the container's box and instantiates type metadata on the way, and most of a
    /// result's parts are absent (a few thousand instructions a line). Present, it is encoded as before.
    mutating func encodeIfPresent<T: ResultPart>(_ value: T?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) }
    }

    /// A list of result parts (`vocabulary`, `alternatives`, `items`): the same, for lists.
    mutating func encodeIfPresent<T: ResultPart>(_ value: [T]?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) }
    }

    mutating func encode(_ value: EncodedEvenWhenNil<MediaIntent>, forKey key: Key) throws {
        if let intent = value.wrappedValue { try encode(intent.rawValue, forKey: key) } else { try encodeNil(forKey: key) }
    }
}

import Foundation

/// `INMediaSearch`'s release date range, as ISO 8601 days.
public struct DateRange: Codable, Sendable, Hashable {
    public var start: String
    public var end: String

    public init(start: String, end: String) {
        self.start = start
        self.end = end
    }
}

/// What the request is about: SiriKit's `INMediaSearch`.
public struct MediaSearch: Codable, Sendable, Hashable {
    public var mediaType: MediaItemType?
    public var mediaName: String?
    public var artistName: String?
    public var albumName: String?
    public var genreNames: [String]?
    public var moodNames: [String]?
    public var releaseDate: DateRange?
    public var sortOrder: MediaSortOrder?
    public var reference: MediaReference?
    public var mediaIdentifier: String?

    public init() {}

    var isEmpty: Bool { self == MediaSearch() }
}

/// Where an `INAddMediaIntent` puts its item.
public struct MediaDestination: Codable, Sendable, Hashable {
    public var library: Bool?
    public var playlistName: String?

    public init(library: Bool? = nil, playlistName: String? = nil) {
        self.library = library
        self.playlistName = playlistName
    }
}

/// Where to play, or which player to control (an extension): a room, a device, or both.
public struct Target: Codable, Sendable, Hashable {
    /// "kitchen", "living room", "upstairs".
    public var area: String?
    /// "TV", "bedroom speaker".
    public var device: String?

    public init(area: String? = nil, device: String? = nil) {
        self.area = area
        self.device = device
    }
}

/// A vocabulary entry that shaped a result.
public struct VocabularyUse: Codable, Sendable, Hashable {
    public var source: String
    public var type: String
    public var phrase: String
    public var identifier: String?
    public var field: String
}

/// How a reading was found, for `--explain`: the sentence and what each word did.
public struct Explanation: Codable, Sendable, Hashable {
    public struct Word: Codable, Sendable, Hashable {
        /// The words as said.
        public var text: String
        /// "literal", the slot `{list:slot}` that took them, "skipped" (a skip word), "extra" (a word no
        /// template has), or "assumed" (a word of the template that was not said: `value`, with no text).
        public var matched: String
        /// The value the slot got, when it has one.
        public var value: String?
    }
    public var intent: String
    public var sentence: String
    /// file:line:column of the sentence.
    public var source: String
    public var words: [Word]
    /// The ranking key: literal words, words in lists and recognisers, words in wildcards, wildcards.
    public var rank: [Int]
}

/// Offsets `[start, end)` in Unicode scalars of the utterance, per filled key, in a fixed key order.
public struct Spans: Codable, Sendable, Hashable {
    public var ranges: [(key: String, range: [Int])]

    public init(_ ranges: [(key: String, range: [Int])] = []) { self.ranges = ranges }

    public subscript(key: String) -> [Int]? { ranges.first { $0.key == key }?.range }

    public static func == (a: Spans, b: Spans) -> Bool {
        a.ranges.count == b.ranges.count && zip(a.ranges, b.ranges).allSatisfy { $0.key == $1.key && $0.range == $1.range }
    }

    public func hash(into hasher: inout Hasher) {
        for r in ranges { hasher.combine(r.key); hasher.combine(r.range) }
    }

    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        // Each offset into a nested list: Foundation's JSONEncoder takes an `[Int]` through its generic path,
        // some 14,000 instructions a span; the JSON is the same.
        for r in ranges {
            var offsets = c.nestedUnkeyedContainer(forKey: Key(stringValue: r.key))
            for offset in r.range { try offsets.encode(offset) }
        }
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        ranges = try c.allKeys.sorted { $0.stringValue < $1.stringValue }.map { ($0.stringValue, try c.decode([Int].self, forKey: $0)) }
    }
}

/// One parse: the contract's result object (see docs/CONTRACT.md). Keys without a value are left out of the
/// JSON; `intent` is always there (null when the utterance is not a media request). The coding is
/// synthesized from the stored properties: a new field is a property here (or in the object that holds
/// it), a case of `Field`, and its place in `ResultBuilding.swift`.
public struct ParseResult: Codable, Sendable, Hashable {
    public var utterance: String?
    public var locale: String?
    /// `INPlayMediaIntent` … `MPNowPlayingInfo`, or nil when the utterance is not a media request (written
    /// as `"intent": null`, never left out).
    @EncodedEvenWhenNil public var intent: MediaIntent?
    public var mediaSearch: MediaSearch?
    public var playShuffled: Bool?
    public var resumePlayback: Bool?
    public var playbackRepeatMode: PlaybackRepeatMode?
    public var playbackQueueLocation: PlaybackQueueLocation?
    public var playbackSpeed: Double?
    public var mediaDestination: MediaDestination?
    public var affinityType: MediaAffinityType?
    public var appName: String?
    public var command: RemoteCommand?
    public var interval: Double?
    public var repeatMode: PlaybackRepeatMode?
    public var shuffle: Bool?
    public var playbackRate: Double?
    public var property: NowPlayingProperty?
    /// Extension: the volume level asked for, 0-100 (on `changeVolume`).
    public var volume: Double?
    /// Extension: "up" or "down", a relative change (on `changeVolume`).
    public var volumeChange: VolumeChange?
    /// Extension: the step of a relative change, when said.
    public var volumeStep: Double?
    /// Extension: where to play or which player to control.
    public var target: Target?
    /// What the request resolved to in the app's catalogue (`mediaparse resolve`; absent from a parse).
    public var resolution: Resolution?
    public var spans: Spans?
    public var vocabulary: [VocabularyUse]?
    public var score: Double?
    public var alternatives: [ParseResult]?
    public var error: String?
    public var explain: Explanation?

    public init(utterance: String? = nil, locale: String? = nil, intent: MediaIntent? = nil) {
        self.utterance = utterance
        self.locale = locale
        self.intent = intent
    }

    /// The result as one line of JSON, as the CLI prints it.
    public func jsonLine(pretty: Bool = false) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        if let data = try? encoder.encode(self) { return String(decoding: data, as: UTF8.self) }
        // Not expected (every number is finite); still one line that keeps the utterance.
        var fallback = ParseResult(utterance: utterance, locale: locale, intent: nil)
        fallback.error = "could not encode the result"
        guard let data = try? encoder.encode(fallback) else { return #"{"intent":null,"error":"could not encode the result"}"# }
        return String(decoding: data, as: UTF8.self)
    }
}

/// An optional that is written as `null` when it has no value, where synthesized coding would leave the key
/// out (the contract's `intent` is always present).
@propertyWrapper
public struct EncodedEvenWhenNil<Value: Codable & Hashable & Sendable>: Codable, Hashable, Sendable {
    public var wrappedValue: Value?

    public init(wrappedValue: Value?) { self.wrappedValue = wrappedValue }

    public init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        wrappedValue = c.decodeNil() ? nil : try c.decode(Value.self)
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        if let wrappedValue { try c.encode(wrappedValue) } else { try c.encodeNil() }
    }
}

extension KeyedDecodingContainer {
    /// A missing key decodes as no value (a result written by another tool may leave `intent` out).
    public func decode<V>(_ type: EncodedEvenWhenNil<V>.Type, forKey key: Key) throws -> EncodedEvenWhenNil<V> {
        try decodeIfPresent(type, forKey: key) ?? EncodedEvenWhenNil(wrappedValue: nil)
    }
}

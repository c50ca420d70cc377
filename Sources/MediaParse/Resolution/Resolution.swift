/// What a request resolved to in the app's catalogue: a result's `resolution` (docs/CONTRACT.md).
///
/// `items` is best first: the first is the item to play, the rest are the alternatives an app may offer
/// ("Maybe you wanted …"). When nothing fits, `items` is empty, `notFound` is true and `nearMisses` lists
/// the closest items, which were not good enough to offer.
public struct Resolution: Codable, Sendable, Hashable {
    public var items: [ResolvedItem]
    public var notFound: Bool?
    public var nearMisses: [ResolvedItem]?

    public init(items: [ResolvedItem], notFound: Bool? = nil, nearMisses: [ResolvedItem]? = nil) {
        self.items = items
        self.notFound = notFound
        self.nearMisses = nearMisses
    }
}

/// One catalogue item a request may mean, with how well it fits.
public struct ResolvedItem: Codable, Sendable, Hashable {
    /// The app's identifier of the item.
    public var identifier: String
    /// Its media type, one of the contract's (`song`, `album`, `podcastShow` …).
    public var type: String
    public var title: String
    public var artist: String?
    /// How well the item fits the request, 0–1 (rounded to 3 decimals).
    public var score: Double
    /// What of the request the item matched: `name`, `artist`, `album`, `type`, `genre`, `releaseDate`,
    /// `alias`, `soundAlike`, `sortOrder`.
    public var matched: [String]?

    public init(identifier: String, type: String, title: String, artist: String? = nil, score: Double, matched: [String]? = nil) {
        self.identifier = identifier
        self.type = type
        self.title = title
        self.artist = artist
        self.score = score
        self.matched = matched
    }
}

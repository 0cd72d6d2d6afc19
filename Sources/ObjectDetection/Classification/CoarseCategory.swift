/// The five coarse categories the default detector's classifier assigns, plus `unknown`.
///
/// `index` is the label's position in the default classifier's label list
/// (`Fashion good`, `Food`, `Home good`, `Place`, `Plant`); `text` is the label text.
public enum CoarseCategory: Int, Sendable, CaseIterable, CustomStringConvertible {
    /// Anything outside the five categories (the older API's `.unknown`).
    case unknown = -1
    /// Clothing, footwear, bags and accessories.
    case fashionGood = 0
    /// Food and drink.
    case food = 1
    /// Furniture, kitchenware, appliances and household items.
    case homeGood = 2
    /// Landscapes, buildings and shops.
    case place = 3
    /// Plants, flowers and fungi.
    case plant = 4

    /// The five real categories, in label-index order.
    public static let labelled: [CoarseCategory] = [.fashionGood, .food, .homeGood, .place, .plant]

    /// Label text as the SDK spells it, e.g. `Fashion good`; nil for `unknown`.
    public var text: String? {
        switch self {
        case .unknown: return nil
        case .fashionGood: return "Fashion good"
        case .food: return "Food"
        case .homeGood: return "Home good"
        case .place: return "Place"
        case .plant: return "Plant"
        }
    }

    /// Position in the default classifier's label list; nil for `unknown`.
    public var index: Int? { self == .unknown ? nil : rawValue }

    /// The category of an ImageNet class index of EfficientNet-Lite0 (`unknown` when none).
    public static func forImageNetClass(_ index: Int) -> CoarseCategory {
        imageNetTable[index] ?? .unknown
    }

    /// The category whose label text is `text` (`unknown` when none).
    public init(labelText text: String) {
        self = Self.labelled.first { $0.text == text } ?? .unknown
    }

    /// Label text, or `unknown`.
    public var description: String { text ?? "unknown" }
}

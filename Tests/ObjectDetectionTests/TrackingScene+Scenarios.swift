/// The product-path tracking benchmark's scenes (640×480 camera window; world coordinates are
/// the background's pixels; keyframes give an object's top-left corner and width).
extension TrackingScene {
    /// Two people (same class) walk towards each other; the farther one passes behind the
    /// nearer one and is fully hidden for 9 frames (30 fps).
    static let occludedCrossing = TrackingScene(
        name: "occluded crossing (same class)", frameCount: 85, framesPerSecond: 30,
        actors: [
            Actor(subject: astronaut, keyframes: [(0, 20, 150, 180), (84, 380, 150, 180)], depth: 1),
            Actor(subject: cameraman, keyframes: [(0, 520, 190, 100), (84, 160, 190, 100)], depth: 0),
        ])

    /// A person walks out of the right edge, stays away 1.5 s and comes back from the left
    /// edge, while another person (same class) and a cup stay in view (15 fps).
    static let leaveAndReturnOtherSide = TrackingScene(
        name: "leave, return other side after 1.5 s", frameCount: 54, framesPerSecond: 15,
        actors: [
            Actor(subject: astronaut, keyframes: [(0, 380, 40, 140), (12, 660, 40, 140), (35, -140, 40, 140), (53, 200, 40, 140)],
                  offStage: 13...34),
            Actor(subject: cameraman, keyframes: [(0, 400, 260, 130), (53, 470, 260, 130)]),
            Actor(subject: cup, keyframes: [(0, 20, 340, 100), (53, 24, 340, 100)]),
        ])

    /// The camera pans right fast, stops, and whips back faster; the objects stand still.
    static let cameraPan = TrackingScene(
        name: "camera pan, objects at rest", frameCount: 60, framesPerSecond: 30,
        actors: [
            Actor(subject: cat, keyframes: [(0, 180, 300, 200)]),
            Actor(subject: cup, keyframes: [(0, 560, 100, 110)]),
            Actor(subject: motorcycle, keyframes: [(0, 720, 280, 240)]),
            Actor(subject: cameraman, keyframes: [(0, 980, 80, 130)]),
        ],
        camera: [(0, 0), (10, 0), (20, 350), (30, 350), (38, 0)])

    /// Five objects wander through each other.
    static let crowd = TrackingScene(
        name: "crowd (5 objects)", frameCount: 80, framesPerSecond: 30,
        actors: [
            Actor(subject: astronaut, keyframes: [(0, 40, 40, 130), (40, 300, 170, 130), (79, 120, 250, 130)], depth: 2),
            Actor(subject: cameraman, keyframes: [(0, 480, 40, 120), (40, 260, 130, 120), (79, 480, 230, 120)], depth: 1),
            Actor(subject: cat, keyframes: [(0, 20, 340, 180), (79, 430, 320, 180)], depth: 3),
            Actor(subject: cup, keyframes: [(0, 300, 10, 100), (79, 320, 340, 100)], depth: 0),
            Actor(subject: motorcycle, keyframes: [(0, 400, 330, 220), (79, 10, 60, 220)], depth: 4),
        ])

    /// The cat walks across and comes closer (grows 2×).
    static let movingWithScaleChange = TrackingScene(
        name: "moving + 2× scale", frameCount: 60, framesPerSecond: 30,
        actors: [Actor(subject: cat, keyframes: [(0, 30, 180, 120), (59, 370, 150, 240)])])

    /// A person and a motorcycle cross (the person passes behind); a cup stands still.
    static let crossing = TrackingScene(
        name: "crossing (different classes)", frameCount: 70, framesPerSecond: 30,
        actors: [
            Actor(subject: astronaut, keyframes: [(0, 30, 130, 130), (69, 480, 120, 130)], depth: 0),
            Actor(subject: motorcycle, keyframes: [(0, 380, 200, 260), (69, 0, 210, 260)], depth: 1),
            Actor(subject: cup, keyframes: [(0, 300, 0, 100)]),
        ])

    /// The cup leaves through the right edge and comes back lower through the same edge 0.5 s
    /// later, while the cat sits still.
    static let leaveAndReenter = TrackingScene(
        name: "leave and re-enter (same edge)", frameCount: 60, framesPerSecond: 30,
        actors: [
            Actor(subject: cup, keyframes: [(0, 300, 80, 100), (20, 650, 80, 100), (36, 640, 250, 100), (59, 440, 250, 100)],
                  offStage: 21...35),
            Actor(subject: cat, keyframes: [(0, 40, 240, 200)]),
        ])

    static let all = [occludedCrossing, leaveAndReturnOtherSide, cameraPan, crowd, movingWithScaleChange, crossing, leaveAndReenter]
}

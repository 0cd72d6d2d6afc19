// The reviewed mapping from the 1000 ImageNet classes of EfficientNet-Lite0 to the SDK's
// five coarse categories. Classes not listed (animals, vehicles, tools, electronics, people,
// instruments, ...) map to no category and stay unlabelled. Reviewed by hand, class by class;
// `CoarseCategoryTableTests` checks that the indices still name these labels.
// Judgement calls: beverages in bottles are Food, glassware and cups are Home good, wild fungi
// are Plant while the edible `mushroom` class is Food, consumer electronics are in no category.

extension CoarseCategory {
    /// ImageNet class index → coarse category, for the label list of `efficientnet_lite0.tflite`
    /// (1000 classes, no background slot).
    static let imageNetTable: [Int: CoarseCategory] = {
        var table: [Int: CoarseCategory] = [:]
        for (category, indices) in imageNetIndices { for i in indices { table[i] = category } }
        return table
    }()

    /// Class indices per category (label names in comments).
    static let imageNetIndices: [(CoarseCategory, [Int])] = [
        (.fashionGood, [
            399,  // abaya
            400,  // academic gown
            411,  // apron
            414,  // backpack
            433,  // bathing cap
            439,  // bearskin
            443,  // bib
            445,  // bikini
            451,  // bolo tie
            452,  // bonnet
            457,  // bow tie
            459,  // brassiere
            464,  // buckle
            474,  // cardigan
            501,  // cloak
            502,  // clog
            514,  // cowboy boot
            515,  // cowboy hat
            531,  // digital watch
            551,  // face powder
            552,  // feather boa
            568,  // fur coat
            578,  // gown
            584,  // hair slide
            591,  // handkerchief
            601,  // hoopskirt
            608,  // jean
            610,  // jersey
            614,  // kimono
            617,  // lab coat
            629,  // lipstick
            630,  // Loafer
            638,  // maillot
            639,  // maillot
            652,  // military uniform
            655,  // miniskirt
            658,  // mitten
            667,  // mortarboard
            679,  // necklace
            689,  // overskirt
            697,  // pajama
            711,  // perfume
            735,  // poncho
            748,  // purse
            770,  // running shoe
            774,  // sandal
            775,  // sarong
            793,  // shower cap
            796,  // ski mask
            806,  // sock
            808,  // sombrero
            824,  // stole
            834,  // suit
            836,  // sunglass
            837,  // sunglasses
            841,  // sweatshirt
            842,  // swimming trunks
            869,  // trench coat
            879,  // umbrella
            887,  // vestment
            893,  // wallet
            903,  // wig
            906,  // Windsor tie
        ]),
        (.food, [
            440,  // beer bottle
            737,  // pop bottle
            907,  // wine bottle
            923,  // plate
            924,  // guacamole
            925,  // consomme
            926,  // hot pot
            927,  // trifle
            928,  // ice cream
            929,  // ice lolly
            930,  // French loaf
            931,  // bagel
            932,  // pretzel
            933,  // cheeseburger
            934,  // hotdog
            935,  // mashed potato
            936,  // head cabbage
            937,  // broccoli
            938,  // cauliflower
            939,  // zucchini
            940,  // spaghetti squash
            941,  // acorn squash
            942,  // butternut squash
            943,  // cucumber
            944,  // artichoke
            945,  // bell pepper
            947,  // mushroom
            948,  // Granny Smith
            949,  // strawberry
            950,  // orange
            951,  // lemon
            952,  // fig
            953,  // pineapple
            954,  // banana
            955,  // jackfruit
            956,  // custard apple
            957,  // pomegranate
            959,  // carbonara
            960,  // chocolate sauce
            961,  // dough
            962,  // meat loaf
            963,  // pizza
            964,  // potpie
            965,  // burrito
            966,  // red wine
            967,  // espresso
            969,  // eggnog
            987,  // corn
            998,  // ear
        ]),
        (.homeGood, [
            409,  // analog clock
            412,  // ashcan
            431,  // bassinet
            434,  // bath towel
            435,  // bathtub
            441,  // beer glass
            453,  // bookcase
            462,  // broom
            463,  // bucket
            469,  // caldron
            470,  // candle
            473,  // can opener
            492,  // chest
            493,  // chiffonier
            495,  // china cabinet
            496,  // Christmas stocking
            499,  // cleaver
            503,  // cocktail shaker
            504,  // coffee mug
            505,  // coffeepot
            512,  // corkscrew
            516,  // cradle
            520,  // crib
            521,  // Crock Pot
            526,  // desk
            530,  // digital clock
            532,  // dining table
            533,  // dishrag
            534,  // dishwasher
            539,  // doormat
            544,  // Dutch oven
            545,  // electric fan
            548,  // entertainment center
            550,  // espresso maker
            556,  // fire screen
            559,  // folding chair
            564,  // four-poster
            567,  // frying pan
            572,  // goblet
            588,  // hamper
            589,  // hand blower
            604,  // hourglass
            606,  // iron
            618,  // ladle
            619,  // lampshade
            621,  // lawn mower
            647,  // measuring cup
            648,  // medicine chest
            651,  // microwave
            659,  // mixing bowl
            669,  // mosquito net
            700,  // paper towel
            721,  // pillow
            725,  // pitcher
            729,  // plate rack
            731,  // plunger
            741,  // prayer rug
            750,  // quilt
            753,  // radiator
            760,  // refrigerator
            765,  // rocking chair
            766,  // rotisserie
            773,  // saltshaker
            786,  // sewing machine
            792,  // shovel
            794,  // shower curtain
            799,  // sliding door
            804,  // soap dispenser
            809,  // soup bowl
            811,  // space heater
            813,  // spatula
            827,  // stove
            828,  // strainer
            831,  // studio couch
            846,  // table lamp
            849,  // teapot
            850,  // teddy
            859,  // toaster
            861,  // toilet seat
            868,  // tray
            876,  // tub
            882,  // vacuum
            883,  // vase
            891,  // waffle iron
            892,  // wall clock
            894,  // wardrobe
            896,  // washbasin
            897,  // washer
            898,  // water bottle
            899,  // water jug
            901,  // whiskey jug
            904,  // window screen
            905,  // window shade
            909,  // wok
            910,  // wooden spoon
            968,  // cup
            999,  // toilet tissue
        ]),
        (.place, [
            406,  // altar
            410,  // apiary
            415,  // bakery
            424,  // barbershop
            425,  // barn
            437,  // beacon
            442,  // bell cote
            449,  // boathouse
            454,  // bookshop
            460,  // breakwater
            467,  // butcher shop
            483,  // castle
            497,  // church
            498,  // cinema
            500,  // cliff dwelling
            509,  // confectionery
            525,  // dam
            536,  // dock
            538,  // dome
            562,  // fountain
            580,  // greenhouse
            582,  // grocery store
            598,  // home theater
            624,  // library
            634,  // lumbermill
            646,  // maze
            649,  // megalith
            660,  // mobile home
            663,  // monastery
            668,  // mosque
            682,  // obelisk
            698,  // palace
            706,  // patio
            718,  // pier
            727,  // planetarium
            743,  // prison
            762,  // restaurant
            788,  // shoe shop
            819,  // stage
            821,  // steel arch bridge
            825,  // stone wall
            832,  // stupa
            839,  // suspension bridge
            853,  // thatch
            858,  // tile roof
            860,  // tobacco shop
            865,  // toyshop
            873,  // triumphal arch
            888,  // viaduct
            900,  // water tower
            915,  // yurt
            970,  // alp
            972,  // cliff
            973,  // coral reef
            974,  // geyser
            975,  // lakeside
            976,  // promontory
            977,  // sandbar
            978,  // seashore
            979,  // valley
            980,  // volcano
        ]),
        (.plant, [
            738,  // pot
            946,  // cardoon
            958,  // hay
            984,  // rapeseed
            985,  // daisy
            986,  // yellow lady's slipper
            988,  // acorn
            989,  // hip
            990,  // buckeye
            991,  // coral fungus
            992,  // agaric
            993,  // gyromitra
            994,  // stinkhorn
            995,  // earthstar
            996,  // hen-of-the-woods
            997,  // bolete
        ]),
    ]
}

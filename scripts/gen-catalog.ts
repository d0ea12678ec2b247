/**
 * Generates the embedded marketplace catalogue (an offline stand-in for eBay's Browse API):
 *   resources/catalog/products.json
 *   resources/catalog/images/<slug>.jpg and <slug>-2.jpg (400x400 flat illustrations)
 *
 * Deterministic: all choices come from a seeded PRNG, so re-running produces identical output.
 * Illustrations are SVG shapes only (no <text>), so rendering does not depend on installed fonts.
 *
 * Regenerate with: npx tsx scripts/gen-catalog.ts
 */
import { mkdir, readdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import sharp from "sharp";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const OUT_DIR = path.join(ROOT, "resources", "catalog");
const IMG_DIR = path.join(OUT_DIR, "images");
const SEED = 0x6c1f7;
const PER_CATEGORY = 17;
const CALCULATED_SHIPPING_COUNT = 8;

// ---------------------------------------------------------------------------
// Seeded PRNG (mulberry32) and helpers
// ---------------------------------------------------------------------------
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const rand = mulberry32(SEED);
const randInt = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));
const pick = <T>(arr: readonly T[]): T => arr[Math.floor(rand() * arr.length)]!;
function shuffle<T>(arr: readonly T[]): T[] {
  const out = [...arr];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}
function hashStr(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 16777619);
  }
  return h >>> 0;
}
function slugify(s: string): string {
  return s
    .toLowerCase()
    .replace(/&/g, " and ")
    .replace(/["'’]/g, "")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}
/** Realistic retail price endings. */
function retailPrice(lo: number, hi: number): string {
  const base = lo + rand() * (hi - lo);
  const endings = [0.99, 0.99, 0.99, 0.95, 0.49, 0.0];
  let whole = Math.floor(base);
  if (whole >= 100 && rand() < 0.6) whole = Math.floor(whole / 5) * 5 + 4; // e.g. 149.99
  const cents = pick(endings);
  const value = Math.max(lo, whole + cents);
  return value.toFixed(2);
}

// ---------------------------------------------------------------------------
// Catalogue source data (hand-written components)
// ---------------------------------------------------------------------------
type Icon = keyof typeof ICONS;

interface ProductType {
  noun: string;
  icon: Icon;
  price: [number, number];
  mods: string[]; // words placed between brand and noun
  attrs: string[]; // trailing ", <attr>"
  kw: string[];
  desc: string[]; // templates: {brand} {attr} {noun}
  heavy?: boolean; // candidate for CALCULATED shipping
  usedOk?: boolean; // may be sold Used
  refurbOk?: boolean; // may be sold Refurbished
  fixedPrices?: string[];
  digital?: boolean; // always free shipping
}

interface FixedItem {
  title: string;
  icon: Icon;
  price: [number, number];
  kw: string[];
  desc: string;
  usedOk?: boolean;
  heavy?: boolean;
}

interface Category {
  name: string;
  brands: string[];
  types?: ProductType[];
  fixed?: FixedItem[];
}

const CATEGORIES: Category[] = [
  {
    name: "Electronics",
    brands: ["Voltrix", "Sonavia", "Kestrel Audio", "Lumora", "Brightwave", "Tesselink", "Quillon", "Halcyra"],
    types: [
      {
        noun: "Wireless Noise-Cancelling Over-Ear Headphones",
        icon: "headphones",
        price: [59, 229],
        mods: ["Q40", "Studio Q", "Drift", "Aria", "Pulse X"],
        attrs: ["Midnight Black", "Sand Beige", "Slate Blue", "40-Hour Battery"],
        kw: ["headphones", "wireless", "bluetooth", "noise cancelling", "audio"],
        desc: [
          "Adaptive noise cancellation and plush memory-foam ear cushions for long listening sessions. Up to 40 hours of playback with fast USB-C charging.",
          "Fold-flat over-ear headphones with multipoint Bluetooth 5.3 and a built-in microphone for calls. Comes with a hard travel case.",
        ],
        refurbOk: true,
      },
      {
        noun: "True Wireless Earbuds with Charging Case",
        icon: "earbuds",
        price: [29, 149],
        mods: ["Pebble", "Mini", "Bud 2", "Sport"],
        attrs: ["IPX5 Water Resistant", "Pearl White", "Graphite", "Wireless Charging"],
        kw: ["earbuds", "wireless", "bluetooth", "audio"],
        desc: [
          "Compact earbuds with punchy sound, touch controls and a pocket-sized charging case. Sweat resistant for workouts.",
          "Ergonomic in-ear fit with three sizes of silicone tips. The case adds three full recharges on the go.",
        ],
        refurbOk: true,
      },
      {
        noun: "Portable Bluetooth Speaker",
        icon: "speaker",
        price: [24, 129],
        mods: ["Swell", "Tidal", "Cove", "Roam"],
        attrs: ["Waterproof", "360° Sound", "Forest Green", "Coral"],
        kw: ["speaker", "bluetooth", "portable", "waterproof", "audio"],
        desc: [
          "Rugged, waterproof speaker with rich bass and a 12-hour battery. Pair two for stereo sound.",
          "A palm-sized speaker that fills a room, with a fabric wrap and a built-in lanyard for hikes and the beach.",
        ],
      },
      {
        noun: "Fitness Smartwatch with Heart Rate Monitor",
        icon: "watch",
        price: [49, 249],
        mods: ["Stride", "Motion 2", "Vita", "Pace"],
        attrs: ["GPS", "AMOLED Display", "Rose Gold", "7-Day Battery"],
        kw: ["smartwatch", "fitness", "watch", "tracker", "health"],
        desc: [
          "Tracks steps, sleep, heart rate and over 100 workout modes. Bright always-on display and 5 ATM water resistance.",
          "Lightweight smartwatch with notifications, blood-oxygen readings and a week of battery life on a single charge.",
        ],
        refurbOk: true,
      },
      {
        noun: "10,000mAh Power Bank",
        icon: "battery",
        price: [15, 59],
        mods: ["Slim", "Fast-Charge", "Magnetic"],
        attrs: ["USB-C PD 20W", "Dual Output", "Frosted Blue"],
        kw: ["power bank", "charger", "battery", "usb-c", "travel"],
        desc: [
          "Slim power bank that charges a phone about twice over. 20W USB-C Power Delivery input and output.",
          "Pocketable backup battery with an LED charge indicator and two ports for charging devices at once.",
        ],
      },
      {
        noun: "Mechanical Keyboard",
        icon: "keyboard",
        price: [39, 159],
        mods: ["75% Hot-Swap", "Tenkeyless", "Low-Profile Wireless"],
        attrs: ["Tactile Brown Switches", "RGB Backlit", "Cream & Sage Keycaps"],
        kw: ["keyboard", "mechanical", "computer", "gaming", "office"],
        desc: [
          "Gasket-mounted mechanical keyboard with hot-swappable switches and PBT keycaps. Connects over USB-C, Bluetooth or 2.4GHz.",
          "Satisfying, quiet-tactile typing in a compact layout that frees up desk space.",
        ],
      },
      {
        noun: "Instant Print Camera",
        icon: "camera",
        price: [59, 139],
        mods: ["Snap 9", "Retro", "Mini Instant"],
        attrs: ["Mint Green", "Blush Pink", "Includes 20 Sheets"],
        kw: ["camera", "instant", "photo", "film", "retro"],
        desc: [
          "Point, shoot and hold a credit-card-sized print in seconds. Auto exposure and a selfie mirror make it foolproof.",
          "A fun instant camera for parties and trips, with a built-in flash and close-up lens.",
        ],
      },
      {
        noun: "6-Inch E-Reader",
        icon: "tablet",
        price: [79, 179],
        mods: ["Paperline", "Folio", "Glow"],
        attrs: ["Warm Front Light", "16GB", "Waterproof"],
        kw: ["e-reader", "ebook", "reading", "tablet"],
        desc: [
          "Glare-free 300 ppi e-ink screen that reads like paper, with an adjustable warm light for night reading. Weeks of battery life.",
          "Holds thousands of books in a device lighter than a paperback.",
        ],
        refurbOk: true,
      },
      {
        noun: "Ergonomic Wireless Mouse",
        icon: "mouse",
        price: [14, 69],
        mods: ["Glide", "Silent-Click", "Contour"],
        attrs: ["Rechargeable", "Multi-Device", "Charcoal"],
        kw: ["mouse", "wireless", "computer", "office", "ergonomic"],
        desc: [
          "Sculpted wireless mouse with near-silent clicks and a precise 4000 DPI sensor. Switches between three devices.",
          "Comfortable all-day mouse with a rechargeable battery that lasts up to 70 days.",
        ],
      },
    ],
  },
  {
    name: "Books",
    brands: [],
    fixed: [
      { title: "The Lantern Keeper: A Novel by Miriam Hale, Hardcover", icon: "book", price: [18, 28], kw: ["novel", "fiction", "hardcover", "literary"], desc: "A lighthouse keeper's daughter uncovers a century of family secrets on a storm-battered island. A sweeping, atmospheric debut." , usedOk: true },
      { title: "Salt & Ember: Weeknight Recipes from a Coastal Kitchen by Dara Quinlan, Hardcover", icon: "book", price: [24, 35], kw: ["cookbook", "recipes", "cooking", "hardcover"], desc: "Over 100 simple, vibrant recipes built around seasonal produce and seafood. Beautifully photographed throughout." },
      { title: "Small Rooms, Big Light: Design Ideas for Compact Homes, Hardcover", icon: "book", price: [29, 45], kw: ["interior design", "home", "decor", "coffee table book"], desc: "Practical, inspiring ideas for making apartments and small houses feel spacious. Features 40 real homes." },
      { title: "The Quiet Orbit by Tomas Reyes-Lind, Paperback", icon: "book", price: [12, 18], kw: ["science fiction", "sci-fi", "novel", "paperback"], desc: "A lone maintenance engineer on a derelict station receives a message from a ship that shouldn't exist. Tense, thoughtful science fiction.", usedOk: true },
      { title: "Field Notes on Birds: A Beginner's Guide to Backyard Birding, Paperback", icon: "book", price: [14, 22], kw: ["birding", "nature", "guide", "outdoors"], desc: "Identify 150 common species by sight and song. Includes tips on feeders, binoculars and keeping a birding journal." },
      { title: "Murder at Wrenfield Manor by Agnes Pryce, Paperback", icon: "book", price: [9, 16], kw: ["mystery", "crime", "cozy mystery", "paperback"], desc: "A snowed-in country house, a missing heirloom and a retired schoolteacher with a sharp eye. A classic whodunit.", usedOk: true },
      { title: "The Habit Garden: Growing Small Changes into Lasting Ones by Lena Marsh, Hardcover", icon: "book", price: [19, 28], kw: ["self help", "habits", "productivity", "wellbeing"], desc: "A gentle, research-backed approach to building routines that stick, one small step at a time." },
      { title: "Ollie and the Cloud Who Couldn't Rain, Picture Book, Hardcover", icon: "book", price: [11, 18], kw: ["children", "picture book", "kids", "bedtime"], desc: "A warm, funny picture book about friendship and patience for ages 3 to 7. Lovingly illustrated in watercolour." },
      { title: "Empires of Spice: A History of the World in Seven Flavors by Rohan Mehta, Hardcover", icon: "book", price: [22, 34], kw: ["history", "food history", "nonfiction", "hardcover"], desc: "How pepper, nutmeg, cinnamon and four other spices shaped trade routes, wars and cuisines across two thousand years.", usedOk: true },
      { title: "The Night Market Trilogy Box Set by Yuna Park, Paperback", icon: "books", price: [34, 49], kw: ["fantasy", "young adult", "box set", "trilogy"], desc: "All three books of the bestselling fantasy series in a collectible slipcase. Magic, bargains and a city that only appears after dark." },
      { title: "Beginner's Guide to Watercolor: Techniques and 30 Projects, Paperback", icon: "book", price: [15, 24], kw: ["art", "watercolor", "painting", "craft", "how-to"], desc: "Step-by-step lessons on washes, layering and color mixing, with thirty projects from simple botanicals to landscapes." },
      { title: "Letters from Lisbon by Inês Carvalho, Paperback", icon: "book", price: [13, 19], kw: ["romance", "historical fiction", "novel", "paperback"], desc: "Two strangers exchange letters across 1960s Europe in this tender, bittersweet love story.", usedOk: true },
      { title: "The Mindful Runner: Training Plans from 5K to Marathon, Paperback", icon: "book", price: [16, 25], kw: ["running", "fitness", "training", "sports"], desc: "Twelve-week plans, strength routines and advice on pacing, recovery and staying motivated." },
      { title: "Stargazing for Everyone: A Seasonal Sky Atlas, Spiral-Bound", icon: "book", price: [19, 29], kw: ["astronomy", "stars", "science", "atlas"], desc: "Clear seasonal star charts and planet-finding tips for the naked eye and small telescopes. Lies flat for use outdoors." },
      { title: "Puzzles for Clever Minds: 200 Logic Challenges, Paperback", icon: "book", price: [9, 15], kw: ["puzzles", "logic", "brain teasers", "games"], desc: "From gentle warm-ups to fiendish grids, with full solutions at the back." },
      { title: "The Complete Tales of Harbor Town Collector's Edition, 4-Volume Set", icon: "books", price: [59, 95], kw: ["collector's edition", "box set", "classics", "gift"], desc: "A gorgeous cloth-bound set with gilded edges and ribbon markers. A perfect gift for a devoted reader.", heavy: true },
      { title: "Sourdough Every Day by Pieter van Aalst, Hardcover", icon: "book", price: [21, 32], kw: ["baking", "bread", "sourdough", "cookbook"], desc: "Master a reliable starter and bake crusty loaves, bagels and focaccia with a schedule that fits a working week.", usedOk: true },
    ],
  },
  {
    name: "Home & Kitchen",
    brands: ["Aurora Home", "Hearthwell", "Copperleaf", "Nordvik", "Maple & Mortar", "Brookhaven", "Olive Lane"],
    types: [
      {
        noun: "12-Cup Programmable Coffee Maker",
        icon: "coffeemaker",
        price: [39, 129],
        mods: ["Morning", "Brewline", "Classic"],
        attrs: ["Stainless Steel", "Thermal Carafe", "Matte Black"],
        kw: ["coffee maker", "coffee", "kitchen", "appliance", "brew"],
        desc: [
          "Wake up to fresh coffee with a 24-hour programmable timer and a keep-warm plate. Brew-strength control for bold or regular cups.",
          "A reliable drip coffee maker with a reusable filter and a drip-stop pause for pouring mid-brew.",
        ],
        heavy: true,
      },
      {
        noun: "Stoneware Mug Set of 4",
        icon: "mug",
        price: [22, 48],
        mods: ["Speckled", "Reactive Glaze", "Hand-Thrown"],
        attrs: ["14 oz", "Ocean Blue", "Oatmeal", "Dishwasher Safe"],
        kw: ["mugs", "coffee mug", "stoneware", "kitchen", "tea"],
        desc: [
          "Four generously sized mugs with a glossy reactive glaze; no two are exactly alike. Microwave and dishwasher safe.",
          "Chunky, comfortable mugs that keep tea hot longer. Packed in a gift-ready box.",
        ],
      },
      {
        noun: "Pre-Seasoned Cast Iron Skillet",
        icon: "pan",
        price: [24, 69],
        mods: ["10-Inch", "12-Inch", "Heritage"],
        attrs: ["With Silicone Handle Cover", "Oven Safe", "Induction Ready"],
        kw: ["skillet", "cast iron", "pan", "cookware", "kitchen"],
        desc: [
          "A lifetime pan that sears, bakes and fries with even heat. Comes pre-seasoned and ready to cook.",
          "Heavy-duty cast iron skillet with a helper handle and pour spouts on both sides.",
        ],
        heavy: true,
      },
      {
        noun: "Gooseneck Pour-Over Kettle",
        icon: "kettle",
        price: [29, 99],
        mods: ["Electric", "Precision", "Slim Electric"],
        attrs: ["Temperature Control", "Brushed Copper", "1.0 L"],
        kw: ["kettle", "pour over", "coffee", "tea", "kitchen"],
        desc: [
          "A slender gooseneck spout gives precise pour control for pour-over coffee and delicate teas.",
          "Heats water to the exact degree and holds it for up to an hour. Auto shut-off for peace of mind.",
        ],
      },
      {
        noun: "8-Inch Chef's Knife",
        icon: "knife",
        price: [29, 139],
        mods: ["Damascus", "German Steel", "Santoku-Style"],
        attrs: ["Pakkawood Handle", "With Blade Guard", "Gift Box"],
        kw: ["knife", "chef knife", "cutlery", "kitchen", "cooking"],
        desc: [
          "Razor-sharp high-carbon steel blade with a comfortable, balanced handle. The one knife you'll reach for daily.",
          "Layered steel with a striking pattern, hand-honed to a 15-degree edge.",
        ],
      },
      {
        noun: "Scented Soy Candle",
        icon: "candle",
        price: [12, 38],
        mods: ["Fig & Cedar", "Sea Salt & Sage", "Vanilla Bean", "Amber Woods"],
        attrs: ["Wooden Wick", "50-Hour Burn", "Glass Jar"],
        kw: ["candle", "soy candle", "home fragrance", "decor", "gift"],
        desc: [
          "Hand-poured natural soy wax with a crackling wooden wick and a clean, long-lasting scent.",
          "A cozy candle in a reusable amber glass jar. Burns evenly for around 50 hours.",
        ],
      },
      {
        noun: "Ceramic Planter with Drainage",
        icon: "plant",
        price: [14, 45],
        mods: ["Mid-Century", "Ribbed", "Terrazzo"],
        attrs: ["6-Inch", "With Bamboo Stand", "Set of 2"],
        kw: ["planter", "plant pot", "indoor plants", "decor", "garden"],
        desc: [
          "A modern ceramic planter with a drainage hole and saucer to keep houseplants happy.",
          "Sculptural planter that brightens a windowsill or shelf. Plant not included.",
        ],
      },
      {
        noun: "Knit Throw Blanket",
        icon: "blanket",
        price: [29, 89],
        mods: ["Chunky", "Waffle", "Herringbone"],
        attrs: ["50 x 60 in", "Organic Cotton", "Dusty Rose"],
        kw: ["blanket", "throw", "cozy", "bedroom", "living room"],
        desc: [
          "Soft, breathable throw that's just right for the sofa. Machine washable and gets softer with every wash.",
          "A textured throw blanket that adds warmth and style to any room.",
        ],
      },
      {
        noun: "Tilt-Head Stand Mixer, 5-Quart",
        icon: "mixer",
        price: [189, 449],
        mods: ["Pro", "Bakehouse", "Heritage"],
        attrs: ["Pistachio", "Cast Metal Body", "10 Speeds"],
        kw: ["stand mixer", "baking", "mixer", "kitchen", "appliance"],
        desc: [
          "A powerful 10-speed stand mixer with dough hook, flat beater and wire whip. Stainless steel bowl included.",
          "Built to knead bread dough and whip meringue with ease. The tilt head makes adding ingredients simple.",
        ],
        heavy: true,
        refurbOk: true,
      },
    ],
  },
  {
    name: "Beauty & Personal Care",
    brands: ["Lumière Botanics", "Petal & Pine", "Verdessa", "Solenne", "Calm Cove", "Rosewick", "Mira Skin"],
    types: [
      {
        noun: "Hydrating Face Serum",
        icon: "dropper",
        price: [14, 58],
        mods: ["Hyaluronic Acid", "Vitamin C", "Niacinamide 10%"],
        attrs: ["1 fl oz", "Fragrance Free", "Vegan"],
        kw: ["serum", "skincare", "face", "hydrating"],
        desc: [
          "A lightweight serum that plumps and brightens skin. Suitable for all skin types and cruelty-free.",
          "Daily serum with a silky texture that absorbs quickly under moisturizer or makeup.",
        ],
      },
      {
        noun: "Whipped Body Butter",
        icon: "jar",
        price: [12, 36],
        mods: ["Shea & Coconut", "Cocoa & Vanilla", "Lavender"],
        attrs: ["8 oz", "Travel Size Trio", "Recyclable Glass Jar"],
        kw: ["body butter", "moisturizer", "skincare", "shea"],
        desc: [
          "Rich, whipped body butter that melts into skin for all-day softness without feeling greasy.",
          "Deeply nourishing blend of plant butters and oils in a recyclable glass jar.",
        ],
      },
      {
        noun: "Satin Lipstick Set",
        icon: "lipstick",
        price: [16, 42],
        mods: ["Everyday Nudes", "Berry Bold", "Classic Reds"],
        attrs: ["3-Piece", "Long-Wear", "Gift Box"],
        kw: ["lipstick", "makeup", "cosmetics", "lips"],
        desc: [
          "Three creamy, long-wearing shades in a satin finish. Enriched with vitamin E.",
          "Comfortable colour that glides on smoothly and won't dry lips out.",
        ],
      },
      {
        noun: "Eau de Parfum",
        icon: "perfume",
        price: [34, 129],
        mods: ["Neroli Dusk", "White Tea", "Cedar Noir", "Peony Bloom"],
        attrs: ["50 ml", "100 ml", "Travel Spray"],
        kw: ["perfume", "fragrance", "eau de parfum", "scent"],
        desc: [
          "A luminous fragrance with bright top notes that settle into a warm, woody base.",
          "An elegant, long-lasting scent in a weighted glass bottle. A signature fragrance for every day.",
        ],
      },
      {
        noun: "Bath Bomb Gift Set",
        icon: "bathbomb",
        price: [14, 34],
        mods: ["Spa Night", "Citrus Burst", "Eucalyptus Calm"],
        attrs: ["6-Pack", "12-Pack", "Essential Oils"],
        kw: ["bath bombs", "bath", "spa", "relaxation", "gift"],
        desc: [
          "Fizzy, skin-softening bath bombs made with essential oils and shea butter. Beautifully boxed.",
          "Turn bath time into a spa night with these colourful, gently scented bath bombs.",
        ],
      },
      {
        noun: "Ionic Hair Dryer",
        icon: "hairdryer",
        price: [34, 159],
        mods: ["Compact", "Salon-Grade", "Foldable Travel"],
        attrs: ["1875W", "With Diffuser", "Blush"],
        kw: ["hair dryer", "hair", "styling", "blow dryer"],
        desc: [
          "Fast-drying ionic technology reduces frizz and leaves hair smooth and shiny. Three heat settings and a cool shot.",
          "Lightweight and quiet, with concentrator and diffuser attachments included.",
        ],
        refurbOk: true,
      },
      {
        noun: "Gel Nail Polish Set",
        icon: "nailpolish",
        price: [12, 32],
        mods: ["Pastel", "Autumn Jewel Tones", "Glitter Party"],
        attrs: ["6 Colors", "Chip Resistant", "Quick Dry"],
        kw: ["nail polish", "manicure", "nails", "beauty"],
        desc: [
          "High-shine, chip-resistant colours for a salon look at home. No lamp needed.",
          "A curated palette of six shades with a base coat and top coat.",
        ],
      },
    ],
  },
  {
    name: "Toys & Games",
    brands: ["Brickwise", "Tumbletown", "Jigwell", "Little Oak", "Thistle Games", "Zippity", "Fablewood"],
    types: [
      {
        noun: "Building Bricks Set",
        icon: "blocks",
        price: [19, 119],
        mods: ["City Harbor", "Space Rover", "Treehouse", "Castle"],
        attrs: ["620 Pieces", "1,100 Pieces", "Ages 8+"],
        kw: ["building blocks", "bricks", "construction", "kids", "stem"],
        desc: [
          "A detailed building set with minifigures and moving parts. Compatible with major brick brands.",
          "Hours of creative building with clear step-by-step instructions.",
        ],
      },
      {
        noun: "Jigsaw Puzzle",
        icon: "puzzle",
        price: [14, 34],
        mods: ["Alpine Village", "Wildflower Meadow", "Vintage Map", "Night Market"],
        attrs: ["1000 Pieces", "500 Pieces", "With Poster"],
        kw: ["puzzle", "jigsaw", "family", "games"],
        desc: [
          "A beautifully illustrated jigsaw with thick, snug-fitting pieces and a reference poster.",
          "A relaxing puzzle for a rainy afternoon, printed on recycled board.",
        ],
      },
      {
        noun: "Plush Teddy Bear",
        icon: "teddy",
        price: [12, 45],
        mods: ["Huggable", "Classic Jointed", "Cuddle"],
        attrs: ["12-Inch", "18-Inch", "Honey Brown"],
        kw: ["teddy bear", "plush", "stuffed animal", "baby", "kids"],
        desc: [
          "An irresistibly soft teddy bear with embroidered eyes, safe from birth.",
          "A classic plush companion, made to be hugged for years.",
        ],
      },
      {
        noun: "Strategy Board Game",
        icon: "dice",
        price: [24, 69],
        mods: ["Harbor Lords", "Seed & Sprout", "Sky Caravans"],
        attrs: ["2-5 Players", "Ages 10+", "Family Edition"],
        kw: ["board game", "strategy", "family game", "tabletop"],
        desc: [
          "Trade, build and outwit your friends in this easy-to-learn, hard-to-master strategy game. Plays in about 45 minutes.",
          "A beautifully produced tabletop game with wooden pieces and a modular board for endless replay.",
        ],
      },
      {
        noun: "Remote Control Stunt Car",
        icon: "car",
        price: [24, 89],
        mods: ["Turbo", "All-Terrain", "Flip"],
        attrs: ["2.4GHz", "Rechargeable", "Ages 6+"],
        kw: ["rc car", "remote control", "car", "toy", "kids"],
        desc: [
          "A tough RC car that flips, spins and races over grass and gravel. Two rechargeable batteries included.",
          "Fast, responsive remote control car with LED headlights.",
        ],
      },
      {
        noun: "Diamond Kite",
        icon: "kite",
        price: [12, 29],
        mods: ["Rainbow", "Easy-Fly", "Ripstop"],
        attrs: ["With 200 ft Line", "For Kids & Adults"],
        kw: ["kite", "outdoor toy", "beach", "kids"],
        desc: [
          "A colourful, easy-to-launch kite that flies in light breezes. Assembles in a minute.",
          "Durable ripstop nylon kite with a long ribbon tail and handle line.",
        ],
      },
      {
        noun: "Party Card Game",
        icon: "cards",
        price: [9, 24],
        mods: ["Quick Wit", "Snack Attack", "Mixed Signals"],
        attrs: ["Ages 8+", "2-8 Players", "Travel Tin"],
        kw: ["card game", "party game", "family", "games"],
        desc: [
          "Fast, silly and easy to teach: a card game for family game night that plays in 15 minutes.",
          "A pocket-sized party game that's perfect for travel.",
        ],
      },
    ],
  },
  {
    name: "Sports & Outdoors",
    brands: ["Summitry", "Trailborn", "Peak & Pine", "Northrun", "Wavecrest", "Alder Outdoor", "Kinetra"],
    types: [
      {
        noun: "Non-Slip Yoga Mat",
        icon: "yogamat",
        price: [19, 89],
        mods: ["Eco Cork", "6mm Comfort", "Travel"],
        attrs: ["With Carry Strap", "Lavender", "72 x 24 in"],
        kw: ["yoga mat", "yoga", "fitness", "exercise", "pilates"],
        desc: [
          "Grippy, cushioned mat with alignment lines, made from non-toxic materials.",
          "A dense, supportive mat that stays put through every flow.",
        ],
      },
      {
        noun: "Adjustable Dumbbell Pair",
        icon: "dumbbell",
        price: [79, 349],
        mods: ["Quick-Select", "Compact", "Pro"],
        attrs: ["5-25 lb", "5-52 lb", "With Stand"],
        kw: ["dumbbells", "weights", "strength training", "home gym"],
        desc: [
          "Replace a full rack of weights with one pair. Twist the dial to change the weight in seconds.",
          "Space-saving adjustable dumbbells with a secure locking mechanism.",
        ],
        heavy: true,
      },
      {
        noun: "Insulated Stainless Steel Water Bottle",
        icon: "flask",
        price: [17, 44],
        mods: ["Trail", "Wide-Mouth", "Sip"],
        attrs: ["32 oz", "24 oz", "Glacier Blue", "Sunset Orange"],
        kw: ["water bottle", "insulated", "hydration", "travel", "hiking"],
        desc: [
          "Double-wall vacuum insulation keeps drinks cold for 24 hours or hot for 12. Leak-proof lid.",
          "A durable, powder-coated bottle that's sweat-free and dishwasher safe.",
        ],
      },
      {
        noun: "2-Person Backpacking Tent",
        icon: "tent",
        price: [89, 329],
        mods: ["Ultralight", "Freestanding", "3-Season"],
        attrs: ["Easy Setup", "Olive", "With Footprint"],
        kw: ["tent", "camping", "backpacking", "outdoors", "hiking"],
        desc: [
          "A lightweight, weatherproof tent that pitches in minutes, with two doors and two vestibules.",
          "Roomy two-person shelter with a full rainfly and color-coded poles.",
        ],
        heavy: true,
      },
      {
        noun: "Hiking Daypack",
        icon: "backpack",
        price: [34, 129],
        mods: ["28L", "22L Trail", "Roll-Top"],
        attrs: ["Hydration Compatible", "Rain Cover", "Rust Orange"],
        kw: ["backpack", "daypack", "hiking", "travel", "outdoors"],
        desc: [
          "A comfortable daypack with a ventilated back panel and plenty of pockets for trail essentials.",
          "Water-resistant pack with a padded laptop sleeve, ready for trail or commute.",
        ],
      },
      {
        noun: "Match Soccer Ball",
        icon: "soccerball",
        price: [15, 49],
        mods: ["Training", "Thermo-Bonded", "Street"],
        attrs: ["Size 5", "Size 4", "32-Panel Design"],
        kw: ["soccer ball", "football", "soccer", "sports"],
        desc: [
          "A durable, true-flying ball with a soft touch for training and matches.",
          "Thermally bonded panels for consistent shape and minimal water uptake.",
        ],
      },
      {
        noun: "Indoor/Outdoor Basketball",
        icon: "basketball",
        price: [19, 49],
        mods: ["Composite", "Grip-Tech"],
        attrs: ["Size 7", "Size 6"],
        kw: ["basketball", "ball", "sports", "outdoor"],
        desc: ["Deep channels and a pebbled composite cover give excellent grip on any court."],
      },
      {
        noun: "Rechargeable Camping Lantern",
        icon: "lantern",
        price: [19, 59],
        mods: ["LED", "Collapsible", "Solar"],
        attrs: ["1000 Lumens", "USB-C", "Power Bank Function"],
        kw: ["lantern", "camping", "led", "outdoors", "emergency"],
        desc: [
          "A bright, dimmable lantern that runs for up to 100 hours on low. Doubles as a power bank.",
          "Rugged, water-resistant camping lantern with a warm light mode.",
        ],
      },
      {
        noun: "Tennis Racket",
        icon: "racket",
        price: [29, 189],
        mods: ["Graphite", "Power 105", "Control 98"],
        attrs: ["Pre-Strung", "With Cover", "4 3/8 Grip"],
        kw: ["tennis racket", "tennis", "racquet", "sports"],
        desc: [
          "A forgiving, lightweight racket with a generous sweet spot for developing players.",
          "Graphite frame that balances power and control. Strung and ready to play.",
        ],
      },
    ],
  },
  {
    name: "Fashion",
    brands: ["Wren & Wool", "Haverford Supply", "Linea", "Cobble Street", "Marlowe", "Thread & Thistle", "Saltmarsh"],
    types: [
      {
        noun: "Merino Wool Crewneck Sweater",
        icon: "sweater",
        price: [49, 139],
        mods: ["Men's", "Women's", "Unisex"],
        attrs: ["Heather Grey", "Navy", "Forest", "Oatmeal"],
        kw: ["sweater", "merino", "knitwear", "clothing"],
        desc: [
          "A fine-gauge merino sweater that's soft, breathable and naturally odour-resistant.",
          "A timeless crewneck knitted from extra-fine merino wool. Machine washable on a wool cycle.",
        ],
      },
      {
        noun: "Organic Cotton T-Shirt",
        icon: "shirt",
        price: [14, 34],
        mods: ["Men's Classic", "Women's Relaxed", "Heavyweight"],
        attrs: ["3-Pack", "White", "Washed Black", "Sage"],
        kw: ["t-shirt", "tee", "cotton", "clothing", "basics"],
        desc: [
          "A soft, durable everyday tee cut from organic cotton jersey. Pre-shrunk for a lasting fit.",
          "A relaxed tee with a ribbed crew neck that holds its shape wash after wash.",
        ],
      },
      {
        noun: "Full-Grain Leather Bifold Wallet",
        icon: "wallet",
        price: [24, 89],
        mods: ["Slim", "RFID-Blocking", "Classic"],
        attrs: ["Cognac", "Espresso", "Black"],
        kw: ["wallet", "leather", "accessories", "mens"],
        desc: [
          "Hand-stitched full-grain leather that develops a rich patina over time. Six card slots and a bill compartment.",
          "A slim wallet that carries everything you need without the bulk.",
        ],
      },
      {
        noun: "Cable-Knit Beanie",
        icon: "beanie",
        price: [14, 39],
        mods: ["Pom-Pom", "Fisherman", "Cashmere Blend"],
        attrs: ["Mustard", "Charcoal", "Cream"],
        kw: ["beanie", "hat", "winter", "knit", "accessories"],
        desc: [
          "A warm, chunky cable-knit beanie with a fold-over cuff. One size fits most.",
          "Soft, itch-free knit hat to keep you cozy all winter.",
        ],
      },
      {
        noun: "Waxed Canvas Tote Bag",
        icon: "tote",
        price: [29, 99],
        mods: ["Market", "Everyday", "Zip-Top"],
        attrs: ["Leather Handles", "Tan", "Olive"],
        kw: ["tote bag", "bag", "canvas", "accessories"],
        desc: [
          "A sturdy, water-resistant tote with an interior pocket and leather handles that soften with use.",
          "Roomy enough for a laptop and groceries, handsome enough for the office.",
        ],
      },
      {
        noun: "Low-Top Canvas Sneakers",
        icon: "shoe",
        price: [34, 119],
        mods: ["Women's", "Men's", "Unisex"],
        attrs: ["Off-White", "Navy", "Cushioned Insole"],
        kw: ["sneakers", "shoes", "canvas", "footwear"],
        desc: [
          "Clean, classic sneakers with a vulcanized rubber sole and a cushioned footbed.",
          "Everyday canvas sneakers that go with everything.",
        ],
      },
      {
        noun: "Polarized Sunglasses",
        icon: "sunglasses",
        price: [19, 129],
        mods: ["Round", "Aviator", "Square Acetate"],
        attrs: ["Tortoise", "Gold Frame", "UV400"],
        kw: ["sunglasses", "polarized", "eyewear", "accessories", "summer"],
        desc: [
          "Polarized lenses cut glare and offer full UV400 protection. Comes with a case and cleaning cloth.",
          "Lightweight frames with spring hinges for an all-day comfortable fit.",
        ],
      },
      {
        noun: "Silk Square Scarf",
        icon: "scarf",
        price: [24, 79],
        mods: ["Botanical Print", "Geometric", "Vintage Floral"],
        attrs: ["27 x 27 in", "Hand-Rolled Hem"],
        kw: ["scarf", "silk", "accessories", "womens"],
        desc: [
          "Pure mulberry silk scarf with hand-rolled edges. Wear it at the neck, in the hair or tied to a bag.",
        ],
      },
      {
        noun: "Minimalist Analog Watch",
        icon: "watch",
        price: [49, 249],
        mods: ["38mm", "40mm", "Automatic"],
        attrs: ["Leather Strap", "Mesh Band", "Sapphire Crystal"],
        kw: ["watch", "wristwatch", "analog", "accessories"],
        desc: [
          "A clean, minimalist dial with a scratch-resistant crystal and interchangeable straps.",
          "A refined everyday watch, water resistant to 50 metres.",
        ],
      },
    ],
  },
  {
    name: "Music",
    brands: ["Larkspur", "Fretwell", "Echo Valley", "Resona", "Cadenza", "Tin Roof"],
    types: [
      {
        noun: "Dreadnought Acoustic Guitar",
        icon: "guitar",
        price: [129, 549],
        mods: ["Solid Spruce Top", "Cutaway", "Parlor"],
        attrs: ["Natural", "Sunburst", "With Gig Bag"],
        kw: ["guitar", "acoustic guitar", "instrument", "music"],
        desc: [
          "A warm, balanced-sounding guitar with a solid spruce top and a comfortable satin neck.",
          "A great-playing acoustic set up at the factory for low action. Gig bag included.",
        ],
        heavy: true,
        usedOk: true,
      },
      {
        noun: "Concert Ukulele",
        icon: "ukulele",
        price: [39, 149],
        mods: ["Mahogany", "Koa-Style", "Beginner"],
        attrs: ["With Tuner", "Starter Kit", "Nylon Strings"],
        kw: ["ukulele", "instrument", "music", "beginner"],
        desc: [
          "A bright, sweet-sounding ukulele that stays in tune. Includes a padded bag, strap and clip-on tuner.",
        ],
      },
      {
        noun: "Belt-Drive Turntable",
        icon: "turntable",
        price: [99, 399],
        mods: ["Walnut", "Bluetooth", "Audiophile"],
        attrs: ["Built-In Preamp", "2-Speed", "USB Output"],
        kw: ["turntable", "record player", "vinyl", "audio", "music"],
        desc: [
          "A belt-drive turntable with a switchable preamp so it works with any speakers. Dust cover included.",
          "Classic styling and modern convenience: stream your records to Bluetooth speakers.",
        ],
        heavy: true,
        refurbOk: true,
      },
      {
        noun: "USB Condenser Microphone",
        icon: "mic",
        price: [39, 169],
        mods: ["Podcast", "Studio", "Streaming"],
        attrs: ["With Boom Arm", "Cardioid", "Zero-Latency Monitoring"],
        kw: ["microphone", "usb mic", "podcast", "recording", "streaming"],
        desc: [
          "Plug-and-play studio-quality sound for podcasts, vocals and streaming. Includes a desktop stand.",
        ],
        refurbOk: true,
      },
      {
        noun: "17-Key Kalimba Thumb Piano",
        icon: "kalimba",
        price: [19, 49],
        mods: ["Walnut", "Acacia", "Crystal"],
        attrs: ["With Tuning Hammer", "Songbook Included"],
        kw: ["kalimba", "thumb piano", "instrument", "music", "gift"],
        desc: [
          "A soothing, easy-to-learn instrument with a music-box tone. Comes pre-tuned with a songbook.",
        ],
      },
      {
        noun: "Hand Drum",
        icon: "drum",
        price: [39, 159],
        mods: ["Djembe 10-Inch", "Frame", "Cajón-Style"],
        attrs: ["Goatskin Head", "Hand-Carved", "With Carry Bag"],
        kw: ["drum", "percussion", "djembe", "instrument"],
        desc: [
          "A hand-carved drum with deep bass and crisp slaps. Perfect for drum circles and home jams.",
        ],
      },
    ],
    fixed: [
      { title: "Northern Static - Paper Satellites, 180g Vinyl LP", icon: "record", price: [24, 34], kw: ["vinyl", "record", "lp", "indie rock"], desc: "The acclaimed second album from the indie rock quartet, pressed on heavyweight vinyl with a printed inner sleeve.", usedOk: true },
      { title: "The Velvet Harbors - Low Tide Sessions, Vinyl LP", icon: "record", price: [22, 32], kw: ["vinyl", "record", "lp", "soul"], desc: "Warm, horn-laden soul recorded live to tape in a single weekend.", usedOk: true },
      { title: "Mira Solano - Blue Hour, Limited Edition Colored Vinyl", icon: "record", price: [29, 39], kw: ["vinyl", "record", "jazz", "limited edition"], desc: "Late-night jazz vocals on translucent blue vinyl. Limited pressing with a numbered sleeve." },
      { title: "Kite Season - Greatest Hits 2010-2020, Double Vinyl LP", icon: "record", price: [34, 44], kw: ["vinyl", "record", "pop", "greatest hits"], desc: "Twenty-two songs across two records, with a gatefold sleeve and liner notes.", usedOk: true },
      { title: "Ambient Forests Vol. 2 - Various Artists, Vinyl LP", icon: "record", price: [21, 29], kw: ["vinyl", "record", "ambient", "compilation"], desc: "A calming compilation of field-recording-based ambient pieces. Perfect for reading." },
      { title: "Guitar Strings Variety Pack, Phosphor Bronze Light 12-53, 3 Sets", icon: "strings", price: [14, 24], kw: ["guitar strings", "strings", "acoustic", "accessories"], desc: "Bright, long-lasting phosphor bronze strings with a corrosion-resistant coating." },
    ],
  },
  {
    name: "Gift Cards & Experiences",
    brands: [],
    fixed: [
      { title: "Giftlink Marketplace Digital Gift Card - $25", icon: "giftcard", price: [25, 25], kw: ["gift card", "digital", "egift", "any occasion"], desc: "Delivered instantly by email and redeemable across the whole marketplace. Never expires." },
      { title: "Giftlink Marketplace Digital Gift Card - $50", icon: "giftcard", price: [50, 50], kw: ["gift card", "digital", "egift", "any occasion"], desc: "Delivered instantly by email and redeemable across the whole marketplace. Never expires." },
      { title: "Giftlink Marketplace Digital Gift Card - $100", icon: "giftcard", price: [100, 100], kw: ["gift card", "digital", "egift", "any occasion"], desc: "Delivered instantly by email and redeemable across the whole marketplace. Never expires." },
      { title: "Cozy Bean Coffee Roasters Gift Card - $20", icon: "giftcard", price: [20, 20], kw: ["gift card", "coffee", "cafe"], desc: "Good for coffee, pastries and whole-bean bags at any Cozy Bean location or online." },
      { title: "Reelhouse Cinemas Movie Night for Two, E-Voucher", icon: "ticket", price: [29, 29], kw: ["movie", "cinema", "experience", "date night"], desc: "Two standard tickets plus a large popcorn to share. Valid for 12 months at participating cinemas." },
      { title: "Hands-On Italian Pasta Making Class for Two", icon: "chefhat", price: [119, 159], kw: ["cooking class", "experience", "pasta", "date night"], desc: "Learn to make fresh pasta from scratch with a professional chef, then sit down to enjoy your creations with a glass of wine." },
      { title: "Sunrise Hot Air Balloon Flight for One", icon: "balloon", price: [229, 299], kw: ["hot air balloon", "experience", "adventure", "bucket list"], desc: "Float above the countryside at dawn on a one-hour flight, followed by a celebratory toast. Flexible booking." },
      { title: "Vineyard Wine Tasting Tour for Two", icon: "wineglass", price: [79, 119], kw: ["wine tasting", "experience", "vineyard", "tour"], desc: "A guided tour of a family-run vineyard with a tasting of six wines and a cheese board." },
      { title: "Day Spa Package: 60-Minute Massage & Facial", icon: "spa", price: [149, 199], kw: ["spa", "massage", "experience", "relaxation"], desc: "A full morning of pampering with a 60-minute massage, a hydrating facial and use of the relaxation lounge." },
      { title: "Pottery Wheel Workshop for Beginners, 2.5 Hours", icon: "vase", price: [69, 89], kw: ["pottery", "workshop", "experience", "craft"], desc: "Get your hands muddy at the wheel and throw your own bowl or mug. Pieces are glazed and fired for collection." },
      { title: "Escape Room Adventure for Up to 6 Players", icon: "key", price: [119, 149], kw: ["escape room", "experience", "group", "puzzle"], desc: "Sixty minutes to crack codes and find the way out. A great team outing or birthday activity." },
      { title: "Concert E-Ticket Voucher - $75 Credit", icon: "ticket", price: [75, 75], kw: ["concert", "tickets", "music", "experience"], desc: "Credit toward tickets for thousands of live shows. Delivered by email, valid for 24 months." },
      { title: "Indoor Rock Climbing Intro Session for Two", icon: "mountain", price: [59, 79], kw: ["climbing", "experience", "adventure", "fitness"], desc: "A 90-minute beginner session with an instructor, including harness and shoe rental." },
      { title: "Streaming Music Subscription Gift - 6 Months", icon: "giftcard", price: [59, 59], kw: ["music", "subscription", "digital", "gift card"], desc: "Six months of ad-free music streaming, delivered as a redeemable code." },
      { title: "Monthly Flower Subscription - 3 Deliveries", icon: "flowers", price: [89, 119], kw: ["flowers", "subscription", "bouquet", "gift"], desc: "A fresh, seasonal bouquet delivered to their door once a month for three months." },
      { title: "Surprise Gift Box: Cozy Night In", icon: "giftbox", price: [49, 69], kw: ["gift box", "hamper", "cozy", "self care"], desc: "A curated box with a candle, herbal tea, chocolate and fuzzy socks, wrapped and ready to give.", heavy: true },
      { title: "Stargazing Night at the Observatory for Two", icon: "telescope", price: [49, 69], kw: ["astronomy", "experience", "stars", "date night"], desc: "An evening planetarium show followed by guided telescope viewing with a resident astronomer." },
    ],
  },
  {
    name: "Stationery & Office",
    brands: ["Inkwell & Co.", "Paperwren", "Quire", "Nib & Nook", "Foliant", "Daybright"],
    types: [
      {
        noun: "Dotted Notebook, A5",
        icon: "notebook",
        price: [12, 29],
        mods: ["Hardcover", "Linen-Bound", "Softcover"],
        attrs: ["160 Pages", "120gsm Paper", "Terracotta", "Sage"],
        kw: ["notebook", "journal", "bullet journal", "stationery"],
        desc: [
          "Thick, fountain-pen-friendly paper with a subtle dot grid, lay-flat binding and an elastic closure.",
          "A well-made journal with numbered pages, two ribbon markers and a back pocket.",
        ],
      },
      {
        noun: "Fountain Pen",
        icon: "pen",
        price: [19, 149],
        mods: ["Brass", "Resin Demonstrator", "Classic"],
        attrs: ["Fine Nib", "Medium Nib", "With Converter"],
        kw: ["fountain pen", "pen", "writing", "calligraphy", "stationery"],
        desc: [
          "A smooth-writing fountain pen with a steel nib, cartridge and converter included. Arrives in a gift box.",
          "A weighty, beautifully balanced pen that makes everyday writing a pleasure.",
        ],
      },
      {
        noun: "Undated Weekly Planner",
        icon: "planner",
        price: [16, 38],
        mods: ["Ring-Bound", "Hardcover", "Academic"],
        attrs: ["12 Months", "With Stickers", "Blush"],
        kw: ["planner", "agenda", "organizer", "stationery"],
        desc: [
          "Plan your weeks with goal pages, habit trackers and monthly reflections. Start any time of year.",
        ],
      },
      {
        noun: "Watercolor Paint Set",
        icon: "palette",
        price: [14, 69],
        mods: ["Travel", "Artist-Grade", "Pan"],
        attrs: ["24 Colors", "12 Colors", "With Water Brush"],
        kw: ["watercolor", "paint", "art supplies", "painting"],
        desc: [
          "Richly pigmented half pans in a compact tin with a built-in mixing palette and water brush.",
          "Vibrant, lightfast colours for sketching on the go.",
        ],
      },
      {
        noun: "Washi Tape Set",
        icon: "tape",
        price: [7, 19],
        mods: ["Botanical", "Pastel", "Vintage"],
        attrs: ["10 Rolls", "20 Rolls"],
        kw: ["washi tape", "scrapbooking", "journaling", "crafts"],
        desc: ["Decorative, repositionable paper tape for journals, cards and gift wrapping."],
      },
      {
        noun: "Greeting Card Assortment",
        icon: "envelope",
        price: [12, 29],
        mods: ["Letterpress", "Hand-Illustrated", "Floral"],
        attrs: ["Box of 12", "With Kraft Envelopes", "Blank Inside"],
        kw: ["greeting cards", "cards", "stationery", "letters"],
        desc: [
          "A box of thoughtfully designed cards for birthdays, thank-yous and just-because notes.",
        ],
      },
      {
        noun: "Desk Organizer",
        icon: "pencilcup",
        price: [14, 49],
        mods: ["Bamboo", "Walnut", "Powder-Coated"],
        attrs: ["5 Compartments", "With Pen Cup", "White"],
        kw: ["desk organizer", "office", "storage", "desk"],
        desc: ["Keeps pens, notes and small office supplies tidy and within reach."],
      },
      {
        noun: "Gel Pen Set",
        icon: "pens",
        price: [8, 24],
        mods: ["Fine Point", "Pastel", "Quick-Dry"],
        attrs: ["0.5mm", "12-Pack", "24 Colors"],
        kw: ["gel pens", "pens", "writing", "school", "stationery"],
        desc: ["Smooth, skip-free gel ink in vivid colours. Great for note-taking and journaling."],
      },
    ],
  },
];

// ---------------------------------------------------------------------------
// Colour helpers
// ---------------------------------------------------------------------------
function hsl(h: number, s: number, l: number): string {
  h = ((h % 360) + 360) % 360;
  s /= 100;
  l /= 100;
  const k = (n: number) => (n + h / 30) % 12;
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => l - a * Math.max(-1, Math.min(k(n) - 3, Math.min(9 - k(n), 1)));
  const hex = (x: number) =>
    Math.round(x * 255)
      .toString(16)
      .padStart(2, "0");
  return `#${hex(f(0))}${hex(f(8))}${hex(f(4))}`;
}

interface Pal {
  p: string; // primary
  s: string; // secondary (darker primary)
  a: string; // accent
  d: string; // dark
  l: string; // light
  m: string; // metal / neutral grey
}

function palette(hue: number): Pal {
  const ph = hue + 165;
  return {
    p: hsl(ph, 58, 52),
    s: hsl(ph, 52, 36),
    a: hsl(hue + 35, 88, 62),
    d: hsl(ph + 20, 22, 20),
    l: hsl(hue, 40, 97),
    m: hsl(ph, 8, 78),
  };
}

// ---------------------------------------------------------------------------
// Icons: drawn in a 200x200 local box. Shapes only, no text.
// ---------------------------------------------------------------------------
const ICONS = {
  headphones: (c: Pal) => `
    <path d="M38 122 V98 A62 62 0 0 1 162 98 V122" fill="none" stroke="${c.s}" stroke-width="14" stroke-linecap="round"/>
    <rect x="22" y="100" width="40" height="66" rx="16" fill="${c.p}"/>
    <rect x="138" y="100" width="40" height="66" rx="16" fill="${c.p}"/>
    <rect x="52" y="110" width="14" height="46" rx="6" fill="${c.d}"/>
    <rect x="134" y="110" width="14" height="46" rx="6" fill="${c.d}"/>
    <circle cx="42" cy="133" r="8" fill="${c.a}"/>`,
  earbuds: (c: Pal) => `
    <rect x="36" y="92" width="128" height="82" rx="36" fill="${c.l}"/>
    <path d="M36 122 H164" stroke="${c.m}" stroke-width="4"/>
    <circle cx="100" cy="148" r="5" fill="${c.a}"/>
    <circle cx="68" cy="60" r="22" fill="${c.p}"/><rect x="60" y="60" width="16" height="44" rx="8" fill="${c.p}"/>
    <circle cx="68" cy="60" r="9" fill="${c.s}"/>
    <circle cx="132" cy="60" r="22" fill="${c.p}"/><rect x="124" y="60" width="16" height="44" rx="8" fill="${c.p}"/>
    <circle cx="132" cy="60" r="9" fill="${c.s}"/>`,
  speaker: (c: Pal) => `
    <rect x="48" y="28" width="104" height="150" rx="26" fill="${c.p}"/>
    <rect x="48" y="28" width="104" height="150" rx="26" fill="none" stroke="${c.s}" stroke-width="6"/>
    <circle cx="100" cy="72" r="18" fill="${c.s}"/><circle cx="100" cy="72" r="8" fill="${c.a}"/>
    <circle cx="100" cy="130" r="34" fill="${c.s}"/><circle cx="100" cy="130" r="20" fill="${c.d}"/><circle cx="100" cy="130" r="7" fill="${c.a}"/>`,
  watch: (c: Pal) => `
    <rect x="76" y="12" width="48" height="176" rx="14" fill="${c.s}"/>
    <circle cx="100" cy="100" r="50" fill="${c.d}"/>
    <circle cx="100" cy="100" r="41" fill="${c.l}"/>
    <circle cx="100" cy="100" r="41" fill="none" stroke="${c.a}" stroke-width="4"/>
    <path d="M100 100 V72 M100 100 L120 110" stroke="${c.d}" stroke-width="5" stroke-linecap="round"/>
    <circle cx="100" cy="100" r="4" fill="${c.a}"/>
    <rect x="148" y="92" width="10" height="16" rx="3" fill="${c.m}"/>`,
  battery: (c: Pal) => `
    <rect x="52" y="26" width="96" height="152" rx="20" fill="${c.p}"/>
    <rect x="62" y="36" width="76" height="132" rx="12" fill="${c.s}"/>
    <path d="M108 56 L80 106 H100 L92 148 L122 92 H102 Z" fill="${c.a}"/>
    <rect x="84" y="16" width="32" height="12" rx="4" fill="${c.d}"/>`,
  keyboard: (c: Pal) => {
    let keys = "";
    for (let r = 0; r < 3; r++)
      for (let k = 0; k < 9; k++) keys += `<rect x="${26 + k * 17}" y="${72 + r * 19}" width="13" height="14" rx="3" fill="${(r + k) % 7 === 3 ? c.a : c.l}"/>`;
    return `<rect x="12" y="58" width="176" height="100" rx="14" fill="${c.d}"/>${keys}
      <rect x="60" y="131" width="80" height="14" rx="4" fill="${c.p}"/>`;
  },
  camera: (c: Pal) => `
    <rect x="52" y="42" width="44" height="26" rx="7" fill="${c.s}"/>
    <rect x="22" y="58" width="156" height="112" rx="20" fill="${c.p}"/>
    <rect x="22" y="92" width="156" height="12" fill="${c.s}" opacity="0.5"/>
    <circle cx="100" cy="116" r="40" fill="${c.l}"/>
    <circle cx="100" cy="116" r="31" fill="${c.d}"/>
    <circle cx="100" cy="116" r="15" fill="${c.s}"/>
    <circle cx="92" cy="108" r="6" fill="${c.l}" opacity="0.8"/>
    <rect x="142" y="70" width="24" height="14" rx="4" fill="${c.a}"/>`,
  tablet: (c: Pal) => `
    <rect x="46" y="20" width="108" height="160" rx="16" fill="${c.d}"/>
    <rect x="56" y="34" width="88" height="124" rx="4" fill="${c.l}"/>
    ${[48, 60, 72, 84, 96, 108, 120, 132].map((y, i) => `<rect x="66" y="${y}" width="${i % 3 === 2 ? 44 : 68}" height="5" rx="2" fill="${c.m}"/>`).join("")}
    <circle cx="100" cy="169" r="5" fill="${c.a}"/>`,
  mouse: (c: Pal) => `
    <rect x="58" y="30" width="84" height="146" rx="42" fill="${c.p}"/>
    <path d="M100 30 V92 M58 92 H142" stroke="${c.s}" stroke-width="4"/>
    <rect x="94" y="48" width="12" height="26" rx="6" fill="${c.a}"/>
    <ellipse cx="82" cy="60" rx="6" ry="14" fill="${c.l}" opacity="0.35"/>`,
  book: (c: Pal, v: number) => {
    const motifs = [
      `<circle cx="110" cy="118" r="22" fill="${c.a}"/><path d="M110 100 L114 114 L128 118 L114 122 L110 136 L106 122 L92 118 L106 114 Z" fill="${c.l}"/>`,
      `<path d="M72 150 L98 108 L114 130 L124 116 L148 150 Z" fill="${c.a}"/><circle cx="130" cy="96" r="9" fill="${c.l}"/>`,
      `<path d="M70 112 Q90 96 110 112 T150 112 M70 128 Q90 112 110 128 T150 128 M70 144 Q90 128 110 144 T150 144" stroke="${c.a}" stroke-width="6" fill="none"/>`,
      `<circle cx="110" cy="120" r="24" fill="${c.a}"/><circle cx="122" cy="112" r="20" fill="${c.p}"/>`,
      `<ellipse cx="110" cy="120" rx="14" ry="30" fill="${c.a}" transform="rotate(35 110 120)"/><path d="M94 142 L128 98" stroke="${c.p}" stroke-width="3"/>`,
      `<rect x="80" y="96" width="60" height="50" rx="4" fill="${c.l}"/><rect x="86" y="102" width="48" height="38" rx="2" fill="${c.a}"/>`,
    ];
    return `
    <rect x="46" y="22" width="112" height="158" rx="6" fill="${c.s}"/>
    <rect x="52" y="22" width="106" height="150" rx="6" fill="${c.p}"/>
    <rect x="46" y="172" width="106" height="10" rx="3" fill="${c.l}"/>
    <rect x="52" y="22" width="14" height="150" fill="${c.s}" opacity="0.55"/>
    <rect x="80" y="50" width="60" height="8" rx="4" fill="${c.l}"/>
    <rect x="88" y="66" width="44" height="6" rx="3" fill="${c.l}" opacity="0.8"/>
    ${motifs[v % motifs.length]}`;
  },
  books: (c: Pal) => `
    <rect x="30" y="150" width="140" height="28" rx="4" fill="${c.s}"/><rect x="30" y="158" width="140" height="6" fill="${c.a}"/>
    <rect x="40" y="122" width="124" height="28" rx="4" fill="${c.p}"/><rect x="150" y="122" width="8" height="28" fill="${c.l}"/>
    <rect x="34" y="94" width="132" height="28" rx="4" fill="${c.a}"/><rect x="44" y="104" width="60" height="6" rx="3" fill="${c.l}"/>
    <rect x="48" y="30" width="26" height="64" rx="3" fill="${c.d}"/><rect x="78" y="40" width="24" height="54" rx="3" fill="${c.p}"/>
    <rect x="106" y="26" width="28" height="68" rx="3" fill="${c.s}" transform="rotate(12 120 94)"/>`,
  mug: (c: Pal) => `
    <path d="M84 48 q-10 -12 0 -24 M104 48 q-10 -12 0 -24 M124 48 q-10 -12 0 -24" stroke="${c.l}" stroke-width="5" fill="none" stroke-linecap="round"/>
    <path d="M142 82 h10 a24 24 0 0 1 0 48 h-10" fill="none" stroke="${c.s}" stroke-width="13"/>
    <rect x="48" y="60" width="100" height="112" rx="14" fill="${c.p}"/>
    <rect x="48" y="100" width="100" height="20" fill="${c.a}"/>
    <ellipse cx="98" cy="62" rx="50" ry="7" fill="${c.s}"/>`,
  pan: (c: Pal) => `
    <rect x="128" y="96" width="68" height="18" rx="9" fill="${c.d}"/>
    <circle cx="184" cy="105" r="4" fill="${c.l}"/>
    <circle cx="76" cy="105" r="62" fill="${c.d}"/>
    <circle cx="76" cy="105" r="50" fill="${c.s}"/>
    <ellipse cx="66" cy="112" rx="16" ry="12" fill="${c.l}"/><circle cx="70" cy="110" r="7" fill="${c.a}"/>
    <ellipse cx="92" cy="88" rx="12" ry="8" fill="${c.l}" opacity="0.9"/>`,
  kettle: (c: Pal) => `
    <path d="M58 96 Q30 100 18 62" stroke="${c.s}" stroke-width="10" fill="none" stroke-linecap="round"/>
    <path d="M62 74 Q100 50 138 74 L150 170 H50 Z" fill="${c.p}"/>
    <rect x="44" y="164" width="112" height="14" rx="5" fill="${c.s}"/>
    <ellipse cx="100" cy="72" rx="36" ry="9" fill="${c.s}"/>
    <circle cx="100" cy="58" r="8" fill="${c.a}"/>
    <path d="M140 82 Q178 100 148 150" stroke="${c.d}" stroke-width="11" fill="none" stroke-linecap="round"/>
    <rect x="64" y="100" width="10" height="54" rx="5" fill="${c.l}" opacity="0.35"/>`,
  knife: (c: Pal) => `<g transform="rotate(-32 100 100)">
    <path d="M8 92 H124 V120 H30 Q10 116 8 92 Z" fill="${c.m}"/>
    <path d="M8 92 H124 V98 H12 Z" fill="${c.l}" opacity="0.8"/>
    <rect x="120" y="88" width="8" height="36" rx="3" fill="${c.d}"/>
    <rect x="126" y="91" width="66" height="30" rx="10" fill="${c.s}"/>
    <circle cx="146" cy="106" r="4" fill="${c.a}"/><circle cx="172" cy="106" r="4" fill="${c.a}"/></g>`,
  candle: (c: Pal) => `
    <rect x="52" y="78" width="96" height="100" rx="16" fill="${c.p}"/>
    <rect x="52" y="78" width="96" height="18" rx="8" fill="${c.s}"/>
    <rect x="62" y="112" width="76" height="40" rx="6" fill="${c.l}"/>
    <circle cx="100" cy="132" r="10" fill="${c.a}"/>
    <rect x="98" y="58" width="4" height="22" fill="${c.d}"/>
    <path d="M100 22 Q120 48 100 64 Q80 48 100 22 Z" fill="#ffb347"/>
    <path d="M100 38 Q110 52 100 60 Q90 52 100 38 Z" fill="#fff3b0"/>`,
  plant: (c: Pal) => `
    <ellipse cx="72" cy="62" rx="16" ry="40" fill="#3f9a62" transform="rotate(-30 72 92)"/>
    <ellipse cx="128" cy="62" rx="16" ry="40" fill="#4fb577" transform="rotate(30 128 92)"/>
    <ellipse cx="100" cy="50" rx="16" ry="44" fill="#2f8453"/>
    <path d="M100 50 V100" stroke="#24683f" stroke-width="3"/>
    <rect x="44" y="96" width="112" height="20" rx="6" fill="${c.s}"/>
    <path d="M52 114 H148 L136 180 H64 Z" fill="${c.p}"/>
    <path d="M58 140 H142" stroke="${c.a}" stroke-width="6"/>`,
  coffeemaker: (c: Pal) => `
    <rect x="32" y="166" width="136" height="16" rx="6" fill="${c.d}"/>
    <rect x="116" y="28" width="48" height="142" rx="10" fill="${c.p}"/>
    <rect x="36" y="24" width="128" height="36" rx="12" fill="${c.p}"/>
    <rect x="36" y="54" width="80" height="10" fill="${c.s}"/>
    <rect x="128" y="80" width="24" height="40" rx="6" fill="${c.s}"/>
    <circle cx="140" cy="140" r="7" fill="${c.a}"/>
    <path d="M50 96 H104 L100 162 H54 Z" fill="${c.l}" opacity="0.9"/>
    <path d="M53 126 H101 L100 162 H54 Z" fill="#6b3e26"/>
    <path d="M104 110 h8 v30 h-8" fill="none" stroke="${c.d}" stroke-width="5"/>
    <rect x="46" y="90" width="62" height="10" rx="4" fill="${c.d}"/>`,
  blanket: (c: Pal) => `
    <rect x="40" y="44" width="124" height="40" rx="14" fill="${c.a}"/>
    <rect x="30" y="82" width="140" height="44" rx="14" fill="${c.p}"/>
    <rect x="36" y="124" width="132" height="46" rx="14" fill="${c.s}"/>
    <path d="M30 104 H170" stroke="${c.l}" stroke-width="4" stroke-dasharray="10 6"/>
    <path d="M36 147 H168" stroke="${c.a}" stroke-width="5"/>
    <path d="M40 64 H164" stroke="${c.l}" stroke-width="4" stroke-dasharray="4 6"/>`,
  mixer: (c: Pal) => `
    <rect x="20" y="164" width="156" height="18" rx="9" fill="${c.p}"/>
    <path d="M124 168 V84 Q124 66 142 66 Q160 66 160 84 V168 Z" fill="${c.p}"/>
    <path d="M30 40 Q30 24 50 24 H146 Q172 24 172 50 Q172 76 146 76 H44 Q30 76 30 62 Z" fill="${c.p}"/>
    <path d="M30 62 Q30 76 44 76 H146 Q166 76 171 60" fill="none" stroke="${c.s}" stroke-width="5"/>
    <circle cx="150" cy="50" r="9" fill="${c.a}"/>
    <rect x="150" y="96" width="6" height="24" rx="3" fill="${c.s}"/>
    <rect x="72" y="74" width="10" height="30" fill="${c.m}"/>
    <path d="M30 104 H124 Q122 152 77 162 Q32 152 30 104 Z" fill="${c.m}"/>
    <rect x="26" y="100" width="102" height="10" rx="5" fill="${c.l}"/>
    <path d="M44 120 Q46 146 66 154" stroke="#ffffff" stroke-width="6" fill="none" opacity="0.6" stroke-linecap="round"/>`,
  dropper: (c: Pal) => `
    <rect x="84" y="16" width="32" height="48" rx="16" fill="${c.d}"/>
    <rect x="80" y="60" width="40" height="28" rx="4" fill="${c.a}"/>
    <rect x="58" y="84" width="84" height="98" rx="20" fill="${c.p}"/>
    <rect x="70" y="116" width="60" height="44" rx="6" fill="${c.l}"/>
    <circle cx="100" cy="138" r="9" fill="${c.s}"/>
    <rect x="66" y="94" width="8" height="40" rx="4" fill="${c.l}" opacity="0.4"/>`,
  jar: (c: Pal) => `
    <rect x="42" y="62" width="116" height="34" rx="10" fill="${c.s}"/>
    <rect x="42" y="72" width="116" height="4" fill="${c.a}"/>
    <rect x="36" y="92" width="128" height="82" rx="24" fill="${c.p}"/>
    <ellipse cx="100" cy="134" rx="38" ry="22" fill="${c.l}"/>
    <circle cx="100" cy="134" r="8" fill="${c.a}"/>`,
  lipstick: (c: Pal) => `
    <g transform="rotate(-8 100 100)">
    <path d="M80 88 V46 Q80 36 90 32 L120 22 V88 Z" fill="${hsl(350, 70, 50)}"/>
    <rect x="76" y="84" width="48" height="28" rx="3" fill="#d9b15c"/>
    <rect x="70" y="108" width="60" height="74" rx="8" fill="${c.d}"/>
    <rect x="70" y="132" width="60" height="6" fill="#d9b15c"/></g>
    <rect x="140" y="104" width="30" height="78" rx="8" fill="${c.p}"/>
    <rect x="143" y="86" width="24" height="20" rx="3" fill="#d9b15c"/>
    <path d="M146 88 V70 L164 62 V88 Z" fill="${hsl(15, 75, 60)}"/>`,
  perfume: (c: Pal) => `
    <rect x="76" y="20" width="48" height="36" rx="8" fill="${c.d}"/>
    <rect x="88" y="52" width="24" height="22" fill="#d9b15c"/>
    <rect x="40" y="70" width="120" height="110" rx="26" fill="${c.p}" opacity="0.9"/>
    <rect x="48" y="108" width="104" height="64" rx="20" fill="${c.s}"/>
    <rect x="52" y="80" width="12" height="60" rx="6" fill="${c.l}" opacity="0.5"/>
    <circle cx="100" cy="130" r="14" fill="${c.a}"/>`,
  bathbomb: (c: Pal) => `
    <circle cx="64" cy="126" r="44" fill="${c.p}"/>
    <circle cx="136" cy="126" r="44" fill="${c.a}"/>
    <circle cx="100" cy="70" r="44" fill="${hsl(300, 50, 75)}"/>
    ${[[54, 110], [78, 140], [46, 140], [126, 112], [150, 138], [140, 150], [92, 56], [112, 80], [86, 86]].map(([x, y]) => `<circle cx="${x}" cy="${y}" r="4" fill="${c.l}"/>`).join("")}`,
  hairdryer: (c: Pal) => `
    <path d="M88 104 L74 178 Q72 186 82 186 H98 Q106 186 106 178 L112 104 Z" fill="${c.s}"/>
    <rect x="28" y="50" width="124" height="66" rx="33" fill="${c.p}"/>
    <rect x="142" y="60" width="40" height="46" rx="6" fill="${c.s}"/>
    <circle cx="60" cy="83" r="22" fill="${c.s}"/>
    <circle cx="60" cy="83" r="12" fill="${c.d}"/>
    <rect x="82" y="140" width="16" height="8" rx="3" fill="${c.a}"/>`,
  nailpolish: (c: Pal) => `
    <rect x="82" y="20" width="36" height="76" rx="8" fill="${c.d}"/>
    <rect x="56" y="92" width="88" height="90" rx="22" fill="${c.p}"/>
    <rect x="66" y="102" width="10" height="50" rx="5" fill="${c.l}" opacity="0.5"/>
    <rect x="24" y="130" width="26" height="52" rx="10" fill="${c.a}"/><rect x="30" y="104" width="14" height="28" rx="4" fill="${c.d}"/>
    <rect x="150" y="130" width="26" height="52" rx="10" fill="${hsl(330, 60, 65)}"/><rect x="156" y="104" width="14" height="28" rx="4" fill="${c.d}"/>`,
  blocks: (c: Pal) => {
    const brick = (x: number, y: number, w: number, col: string, dark: string) =>
      `${Array.from({ length: w / 30 }, (_, i) => `<rect x="${x + 8 + i * 30}" y="${y - 10}" width="16" height="12" rx="3" fill="${dark}"/>`).join("")}
       <rect x="${x}" y="${y}" width="${w}" height="44" rx="6" fill="${col}"/><rect x="${x}" y="${y + 36}" width="${w}" height="8" rx="4" fill="${dark}" opacity="0.5"/>`;
    return brick(22, 134, 90, c.p, c.s) + brick(112, 134, 60, c.a, hsl(40, 70, 45)) + brick(52, 80, 90, hsl(140, 45, 50), hsl(140, 45, 35)) + brick(82, 26, 60, hsl(350, 65, 58), hsl(350, 55, 40));
  },
  puzzle: (c: Pal) => `
    <rect x="30" y="30" width="66" height="66" rx="6" fill="${c.p}"/><circle cx="108" cy="63" r="14" fill="${c.p}"/>
    <rect x="104" y="30" width="66" height="66" rx="6" fill="${c.a}"/><circle cx="137" cy="108" r="14" fill="${c.a}"/>
    <rect x="30" y="104" width="66" height="66" rx="6" fill="${c.s}"/><circle cx="63" cy="96" r="14" fill="${c.s}"/>
    <rect x="110" y="116" width="62" height="62" rx="6" fill="${c.l}" transform="rotate(10 141 147)"/><circle cx="104" cy="146" r="13" fill="${c.l}"/>`,
  teddy: () => {
    const f = "#b9814f";
    const dk = "#8a5a33";
    const lt = "#e8c7a0";
    return `
    <circle cx="62" cy="40" r="20" fill="${f}"/><circle cx="62" cy="40" r="10" fill="${lt}"/>
    <circle cx="138" cy="40" r="20" fill="${f}"/><circle cx="138" cy="40" r="10" fill="${lt}"/>
    <ellipse cx="100" cy="146" rx="52" ry="44" fill="${f}"/>
    <ellipse cx="100" cy="150" rx="28" ry="26" fill="${lt}"/>
    <circle cx="52" cy="170" r="18" fill="${dk}"/><circle cx="148" cy="170" r="18" fill="${dk}"/>
    <circle cx="100" cy="72" r="46" fill="${f}"/>
    <ellipse cx="100" cy="88" rx="20" ry="15" fill="${lt}"/>
    <ellipse cx="100" cy="82" rx="8" ry="6" fill="#3b2416"/>
    <circle cx="82" cy="64" r="6" fill="#3b2416"/><circle cx="118" cy="64" r="6" fill="#3b2416"/>
    <path d="M70 112 H130 L100 126 Z" fill="${hsl(350, 65, 55)}"/>`;
  },
  dice: (c: Pal) => {
    const pip = (x: number, y: number, col: string) => `<circle cx="${x}" cy="${y}" r="7" fill="${col}"/>`;
    return `
    <g transform="rotate(-14 68 116)"><rect x="24" y="72" width="88" height="88" rx="16" fill="${c.l}"/>
      ${pip(46, 94, c.d)}${pip(90, 94, c.d)}${pip(68, 116, c.d)}${pip(46, 138, c.d)}${pip(90, 138, c.d)}</g>
    <g transform="rotate(16 136 92)"><rect x="94" y="50" width="84" height="84" rx="16" fill="${c.p}"/>
      ${pip(114, 70, c.l)}${pip(158, 70, c.l)}${pip(114, 92, c.l)}${pip(158, 92, c.l)}${pip(114, 114, c.l)}${pip(158, 114, c.l)}</g>`;
  },
  car: (c: Pal) => `
    <path d="M34 124 Q36 96 64 92 L84 62 Q90 56 100 56 H134 Q146 56 152 68 L164 92 Q184 96 184 120 V136 H20 V128 Z" fill="${c.p}"/>
    <path d="M90 70 H128 L140 92 H78 Z" fill="${c.l}" opacity="0.85"/>
    <path d="M110 70 V92" stroke="${c.p}" stroke-width="5"/>
    <rect x="166" y="104" width="14" height="10" rx="3" fill="${c.a}"/>
    <rect x="20" y="124" width="164" height="12" rx="6" fill="${c.s}"/>
    <circle cx="58" cy="138" r="24" fill="${c.d}"/><circle cx="58" cy="138" r="10" fill="${c.m}"/>
    <circle cx="146" cy="138" r="24" fill="${c.d}"/><circle cx="146" cy="138" r="10" fill="${c.m}"/>`,
  kite: (c: Pal) => `
    <path d="M96 20 L40 78 L96 90 Z" fill="${c.p}"/>
    <path d="M96 20 L152 78 L96 90 Z" fill="${c.a}"/>
    <path d="M40 78 L96 156 L96 90 Z" fill="${hsl(200, 65, 55)}"/>
    <path d="M152 78 L96 156 L96 90 Z" fill="${hsl(350, 65, 60)}"/>
    <path d="M96 20 V156 M40 78 H152" stroke="${c.d}" stroke-width="2"/>
    <path d="M96 156 Q120 170 104 184 Q90 196 118 198" stroke="${c.d}" stroke-width="3" fill="none"/>
    <path d="M104 168 l10 -6 v12 Z M102 186 l-10 -6 v12 Z" fill="${c.a}"/>`,
  cards: (c: Pal) => {
    const card = (rot: number, col: string, mark: string) => `
      <g transform="rotate(${rot} 100 170)"><rect x="62" y="38" width="76" height="112" rx="10" fill="${c.l}" stroke="${c.m}" stroke-width="2"/>
      ${mark.replace(/COL/g, col)}</g>`;
    const diamond = `<path d="M100 70 L120 94 L100 118 L80 94 Z" fill="COL"/>`;
    const heart = `<path d="M100 118 L78 94 A12 12 0 0 1 100 80 A12 12 0 0 1 122 94 Z" fill="COL"/>`;
    const circle = `<circle cx="100" cy="94" r="20" fill="COL"/>`;
    return card(-22, c.s, circle) + card(0, c.p, diamond) + card(22, hsl(350, 65, 55), heart);
  },
  yogamat: (c: Pal) => `
    <rect x="34" y="70" width="124" height="70" fill="${c.p}"/>
    <ellipse cx="34" cy="105" rx="18" ry="35" fill="${c.s}"/>
    <ellipse cx="158" cy="105" rx="18" ry="35" fill="${c.p}"/>
    <ellipse cx="158" cy="105" rx="12" ry="25" fill="none" stroke="${c.s}" stroke-width="3"/>
    <ellipse cx="158" cy="105" rx="6" ry="13" fill="none" stroke="${c.s}" stroke-width="3"/>
    <rect x="66" y="64" width="14" height="82" rx="4" fill="${c.a}"/>
    <rect x="112" y="64" width="14" height="82" rx="4" fill="${c.a}"/>
    <path d="M34 140 L14 172 H160 L158 140" fill="${c.p}" opacity="0.85"/>`,
  dumbbell: (c: Pal) => `
    <rect x="44" y="92" width="112" height="16" rx="4" fill="${c.m}"/>
    <rect x="14" y="72" width="16" height="56" rx="5" fill="${c.s}"/>
    <rect x="28" y="56" width="24" height="88" rx="6" fill="${c.d}"/>
    <rect x="170" y="72" width="16" height="56" rx="5" fill="${c.s}"/>
    <rect x="148" y="56" width="24" height="88" rx="6" fill="${c.d}"/>
    <rect x="80" y="90" width="40" height="20" rx="4" fill="${c.a}"/>`,
  flask: (c: Pal) => `
    <path d="M100 14 a14 14 0 1 1 0.1 0" fill="none" stroke="${c.d}" stroke-width="6"/>
    <rect x="76" y="24" width="48" height="36" rx="8" fill="${c.d}"/>
    <rect x="62" y="56" width="76" height="130" rx="24" fill="${c.p}"/>
    <rect x="62" y="96" width="76" height="16" fill="${c.a}"/>
    <rect x="72" y="120" width="10" height="54" rx="5" fill="${c.l}" opacity="0.4"/>`,
  tent: (c: Pal) => `
    <path d="M14 170 L100 34 L186 170 Z" fill="${c.p}"/>
    <path d="M100 34 L186 170 H140 Z" fill="${c.s}"/>
    <path d="M100 82 L70 170 H130 Z" fill="${c.d}"/>
    <path d="M100 82 L80 170 H100 Z" fill="${c.a}"/>
    <path d="M100 34 V14" stroke="${c.d}" stroke-width="4"/><path d="M100 14 L122 20 L100 26 Z" fill="${c.a}"/>
    <rect x="6" y="168" width="188" height="8" rx="4" fill="${c.d}" opacity="0.6"/>`,
  backpack: (c: Pal) => `
    <path d="M80 40 Q80 20 100 20 Q120 20 120 40" fill="none" stroke="${c.s}" stroke-width="9"/>
    <rect x="44" y="38" width="112" height="146" rx="34" fill="${c.p}"/>
    <path d="M44 86 Q100 64 156 86" stroke="${c.s}" stroke-width="6" fill="none"/>
    <rect x="64" y="112" width="72" height="56" rx="14" fill="${c.s}"/>
    <path d="M72 124 H128" stroke="${c.a}" stroke-width="4"/>
    <rect x="92" y="96" width="16" height="10" rx="3" fill="${c.a}"/>`,
  soccerball: (c: Pal) => `
    <circle cx="100" cy="100" r="76" fill="#ffffff"/>
    <path d="M100 74 L124 92 L115 120 H85 L76 92 Z" fill="${c.d}"/>
    <path d="M100 24 L122 34 L124 50 L100 58 L76 50 L78 34 Z" fill="${c.d}"/>
    <path d="M162 70 L174 96 L162 122 L146 112 L142 84 Z" fill="${c.d}"/>
    <path d="M38 70 L26 96 L38 122 L54 112 L58 84 Z" fill="${c.d}"/>
    <path d="M70 160 L78 140 H122 L130 160 Q100 180 70 160 Z" fill="${c.d}"/>
    <path d="M100 58 V74 M124 92 L142 84 M76 92 L58 84 M115 120 L122 140 M85 120 L78 140" stroke="${c.d}" stroke-width="4"/>
    <circle cx="100" cy="100" r="76" fill="none" stroke="${c.m}" stroke-width="3"/>`,
  basketball: () => `
    <circle cx="100" cy="100" r="76" fill="#e8823a"/>
    <path d="M24 100 H176 M100 24 V176" stroke="#3b2416" stroke-width="5"/>
    <path d="M48 44 Q80 100 48 156 M152 44 Q120 100 152 156" stroke="#3b2416" stroke-width="5" fill="none"/>
    <ellipse cx="76" cy="64" rx="18" ry="10" fill="#ffffff" opacity="0.25" transform="rotate(-30 76 64)"/>`,
  lantern: (c: Pal) => `
    <path d="M70 40 Q100 4 130 40" fill="none" stroke="${c.d}" stroke-width="7"/>
    <rect x="60" y="36" width="80" height="22" rx="8" fill="${c.p}"/>
    <rect x="66" y="56" width="68" height="96" rx="10" fill="#fff4c2"/>
    <circle cx="100" cy="104" r="24" fill="#ffd866"/>
    <circle cx="100" cy="104" r="12" fill="#fffaf0"/>
    <path d="M78 56 V152 M122 56 V152" stroke="${c.s}" stroke-width="6"/>
    <rect x="54" y="150" width="92" height="30" rx="10" fill="${c.p}"/>
    <rect x="90" y="160" width="20" height="8" rx="3" fill="${c.a}"/>`,
  racket: (c: Pal) => {
    let strings = "";
    for (let i = -3; i <= 3; i++) strings += `<path d="M${100 + i * 12} 20 V120 M40 ${70 + i * 12} H160" stroke="${c.l}" stroke-width="2"/>`;
    return `<g transform="rotate(-30 100 100)">
      <defs><clipPath id="rk"><ellipse cx="100" cy="70" rx="48" ry="58"/></clipPath></defs>
      <g clip-path="url(#rk)">${strings}</g>
      <ellipse cx="100" cy="70" rx="48" ry="58" fill="none" stroke="${c.p}" stroke-width="10"/>
      <path d="M88 126 L96 148 H104 L112 126" fill="none" stroke="${c.p}" stroke-width="8"/>
      <rect x="92" y="146" width="16" height="50" rx="6" fill="${c.d}"/>
      <rect x="92" y="146" width="16" height="8" fill="${c.a}"/></g>
      <circle cx="160" cy="150" r="20" fill="#d8ec4a"/><path d="M143 140 Q160 150 177 140 M143 160 Q160 150 177 160" stroke="#ffffff" stroke-width="3" fill="none"/>`;
  },
  sweater: (c: Pal) => `
    <path d="M62 30 L26 48 L10 138 L36 146 L54 84 V176 H146 V84 L164 146 L190 138 L174 48 L138 30 Q100 52 62 30 Z" fill="${c.p}"/>
    <path d="M62 30 Q100 58 138 30" fill="none" stroke="${c.s}" stroke-width="10"/>
    <rect x="54" y="164" width="92" height="14" fill="${c.s}"/>
    <path d="M12 130 L36 138 M188 130 L164 138" stroke="${c.s}" stroke-width="12"/>
    <path d="M70 100 l10 10 l10 -10 l10 10 l10 -10 l10 10 l10 -10" stroke="${c.a}" stroke-width="5" fill="none"/>`,
  shirt: (c: Pal) => `
    <path d="M64 34 L24 56 L10 96 L44 110 L54 90 V176 H146 V90 L156 110 L190 96 L176 56 L136 34 Q100 56 64 34 Z" fill="${c.p}"/>
    <path d="M64 34 Q100 60 136 34" fill="none" stroke="${c.s}" stroke-width="7"/>
    <circle cx="124" cy="84" r="10" fill="${c.a}"/>`,
  wallet: (c: Pal) => `
    <rect x="24" y="52" width="152" height="108" rx="16" fill="${c.p}"/>
    <rect x="32" y="60" width="136" height="92" rx="10" fill="none" stroke="${c.l}" stroke-width="2.5" stroke-dasharray="6 5" opacity="0.7"/>
    <rect x="40" y="40" width="80" height="22" rx="4" fill="${c.a}"/>
    <path d="M118 84 H176 V128 H118 Q104 128 104 114 V98 Q104 84 118 84 Z" fill="${c.s}"/>
    <circle cx="126" cy="106" r="7" fill="${c.a}"/>`,
  beanie: (c: Pal) => `
    <circle cx="100" cy="30" r="20" fill="${c.a}"/>
    <path d="M36 128 Q36 44 100 44 Q164 44 164 128 Z" fill="${c.p}"/>
    ${[64, 88, 112, 136].map((x) => `<path d="M${x} 56 Q${x - 6} 90 ${x} 128" stroke="${c.s}" stroke-width="5" fill="none"/>`).join("")}
    <rect x="28" y="120" width="144" height="44" rx="12" fill="${c.s}"/>
    ${[44, 60, 76, 92, 108, 124, 140, 156].map((x) => `<path d="M${x} 126 V158" stroke="${c.p}" stroke-width="4"/>`).join("")}`,
  tote: (c: Pal) => `
    <path d="M66 70 V52 Q66 22 100 22 Q134 22 134 52 V70" fill="none" stroke="${c.d}" stroke-width="9"/>
    <path d="M34 66 H166 L176 182 H24 Z" fill="${c.p}"/>
    <rect x="34" y="66" width="132" height="14" fill="${c.s}"/>
    <circle cx="66" cy="74" r="5" fill="${c.a}"/><circle cx="134" cy="74" r="5" fill="${c.a}"/>
    <rect x="70" y="110" width="60" height="44" rx="6" fill="${c.s}" opacity="0.6"/>`,
  shoe: (c: Pal) => `
    <path d="M16 130 Q14 92 30 86 L64 76 Q84 104 112 96 L150 110 Q186 118 188 140 V150 H16 Z" fill="${c.p}"/>
    <path d="M30 86 L64 76 Q84 104 112 96 L102 84 Q82 92 70 64 Z" fill="${c.s}"/>
    <rect x="12" y="144" width="180" height="18" rx="9" fill="${c.l}"/>
    <path d="M12 152 H192" stroke="${c.m}" stroke-width="3"/>
    <path d="M80 90 L92 100 M92 84 L102 94 M72 98 L84 106" stroke="${c.l}" stroke-width="4" stroke-linecap="round"/>
    <circle cx="34" cy="118" r="8" fill="${c.a}"/>`,
  sunglasses: (c: Pal) => `
    <path d="M22 82 L8 62 M178 82 L192 62" stroke="${c.d}" stroke-width="7" stroke-linecap="round"/>
    <rect x="18" y="76" width="74" height="60" rx="26" fill="${c.d}"/>
    <rect x="108" y="76" width="74" height="60" rx="26" fill="${c.d}"/>
    <rect x="25" y="83" width="60" height="46" rx="20" fill="${c.p}"/>
    <rect x="115" y="83" width="60" height="46" rx="20" fill="${c.p}"/>
    <path d="M90 92 Q100 82 110 92" stroke="${c.d}" stroke-width="7" fill="none"/>
    <path d="M34 92 L48 104 M124 92 L138 104" stroke="${c.l}" stroke-width="5" stroke-linecap="round" opacity="0.6"/>`,
  scarf: (c: Pal) => {
    const tail = (x: number, y: number, h: number, rot: number) => `<g transform="rotate(${rot} ${x + 18} ${y})">
      <rect x="${x}" y="${y}" width="36" height="${h}" rx="4" fill="${c.p}"/>
      <rect x="${x}" y="${y + h - 34}" width="36" height="8" fill="${c.a}"/><rect x="${x}" y="${y + h - 20}" width="36" height="6" fill="${c.l}"/>
      ${[4, 11, 18, 25, 32].map((dx) => `<path d="M${x + dx} ${y + h} v14" stroke="${c.s}" stroke-width="3" stroke-linecap="round"/>`).join("")}</g>`;
    return `
    <path d="M44 52 Q100 12 156 52" stroke="${c.s}" stroke-width="26" fill="none" stroke-linecap="round"/>
    <path d="M44 52 Q100 104 156 52" stroke="${c.p}" stroke-width="30" fill="none" stroke-linecap="round"/>
    <path d="M60 66 Q100 90 140 66" stroke="${c.a}" stroke-width="5" fill="none"/>
    ${tail(70, 84, 92, 8)}${tail(98, 88, 80, -10)}
    <rect x="84" y="70" width="34" height="30" rx="10" fill="${c.s}"/>`;
  },
  guitar: (c: Pal) => `<g transform="rotate(-35 100 100)">
    <rect x="92" y="10" width="16" height="100" fill="${c.d}"/>
    <rect x="86" y="0" width="28" height="24" rx="6" fill="${c.s}"/>
    <circle cx="100" cy="112" r="30" fill="${c.p}"/>
    <circle cx="100" cy="160" r="40" fill="${c.p}"/>
    <circle cx="100" cy="124" r="13" fill="${c.d}"/>
    <rect x="86" y="160" width="28" height="8" rx="3" fill="${c.d}"/>
    <path d="M96 20 V162 M100 20 V162 M104 20 V162" stroke="${c.l}" stroke-width="1.5"/></g>`,
  ukulele: (c: Pal) => `<g transform="rotate(30 100 100)">
    <rect x="93" y="14" width="14" height="96" fill="${c.d}"/>
    <rect x="88" y="2" width="24" height="20" rx="6" fill="${c.s}"/>
    <circle cx="100" cy="118" r="24" fill="${c.a}"/>
    <circle cx="100" cy="156" r="32" fill="${c.a}"/>
    <circle cx="100" cy="128" r="10" fill="${c.d}"/>
    <rect x="88" y="156" width="24" height="7" rx="3" fill="${c.d}"/>
    <path d="M97 20 V158 M103 20 V158" stroke="${c.l}" stroke-width="1.5"/></g>`,
  record: (c: Pal) => `
    <rect x="8" y="30" width="120" height="140" rx="6" fill="${c.p}" transform="rotate(-6 68 100)"/>
    <rect x="30" y="60" width="50" height="50" rx="25" fill="${c.a}" transform="rotate(-6 68 100)"/>
    <circle cx="120" cy="104" r="72" fill="#1d1d22"/>
    ${[64, 56, 48, 40].map((r) => `<circle cx="120" cy="104" r="${r}" fill="none" stroke="#34343c" stroke-width="2"/>`).join("")}
    <circle cx="120" cy="104" r="26" fill="${c.a}"/>
    <circle cx="120" cy="104" r="4" fill="${c.l}"/>
    <path d="M84 62 A56 56 0 0 1 120 48" stroke="#ffffff" stroke-width="4" opacity="0.25" fill="none"/>`,
  strings: (c: Pal) => `
    <rect x="40" y="24" width="120" height="156" rx="12" fill="${c.p}"/>
    <circle cx="100" cy="96" r="46" fill="none" stroke="#d9b15c" stroke-width="4"/>
    <circle cx="100" cy="96" r="38" fill="none" stroke="#d9b15c" stroke-width="3"/>
    <circle cx="100" cy="96" r="30" fill="none" stroke="#d9b15c" stroke-width="2"/>
    <circle cx="100" cy="96" r="14" fill="${c.s}"/>
    <rect x="58" y="152" width="84" height="12" rx="6" fill="${c.l}"/>`,
  turntable: (c: Pal) => `
    <rect x="14" y="48" width="172" height="120" rx="14" fill="${c.p}"/>
    <rect x="14" y="150" width="172" height="18" rx="8" fill="${c.s}"/>
    <circle cx="84" cy="104" r="50" fill="#1d1d22"/>
    <circle cx="84" cy="104" r="38" fill="none" stroke="#34343c" stroke-width="2"/>
    <circle cx="84" cy="104" r="15" fill="${c.a}"/><circle cx="84" cy="104" r="3" fill="${c.l}"/>
    <circle cx="158" cy="68" r="9" fill="${c.m}"/>
    <path d="M158 68 L156 118 L124 134" stroke="${c.l}" stroke-width="5" fill="none" stroke-linecap="round"/>
    <circle cx="162" cy="140" r="6" fill="${c.a}"/>`,
  mic: (c: Pal) => `
    <path d="M56 92 Q56 140 100 140 Q144 140 144 92" stroke="${c.d}" stroke-width="8" fill="none"/>
    <rect x="94" y="138" width="12" height="32" fill="${c.d}"/>
    <rect x="62" y="166" width="76" height="14" rx="7" fill="${c.d}"/>
    <rect x="70" y="18" width="60" height="104" rx="30" fill="${c.m}"/>
    ${[34, 46, 58, 70].map((y) => `<path d="M72 ${y} H128" stroke="${c.s}" stroke-width="3"/>`).join("")}
    <rect x="70" y="84" width="60" height="38" rx="0" fill="${c.p}"/>
    <path d="M70 84 H130 V92 Q130 122 100 122 Q70 122 70 92 Z" fill="${c.p}"/>
    <circle cx="100" cy="100" r="5" fill="${c.a}"/>`,
  kalimba: (c: Pal) => {
    const lens = [60, 70, 80, 90, 100, 90, 80, 70, 60];
    const tines = lens.map((len, i) => `<rect x="${44 + i * 13}" y="${42}" width="8" height="${len}" rx="3" fill="${c.l}"/>`).join("");
    return `<path d="M24 36 H176 L166 180 H34 Z" fill="#b9814f"/>
      <path d="M24 36 H176 L174 56 H26 Z" fill="#8a5a33"/>
      <circle cx="100" cy="152" r="16" fill="#3b2416"/>
      ${tines}<rect x="36" y="62" width="128" height="8" rx="3" fill="${c.m}"/>
      <circle cx="44" cy="160" r="5" fill="${c.a}"/><circle cx="156" cy="160" r="5" fill="${c.a}"/>`;
  },
  drum: (c: Pal) => `
    <path d="M40 60 V150 Q100 184 160 150 V60" fill="${c.p}"/>
    <path d="M40 70 L70 150 L100 76 L130 156 L160 70" stroke="${c.a}" stroke-width="4" fill="none"/>
    <ellipse cx="100" cy="60" rx="60" ry="20" fill="${c.l}"/>
    <ellipse cx="100" cy="60" rx="60" ry="20" fill="none" stroke="${c.s}" stroke-width="6"/>
    <path d="M40 148 Q100 180 160 148" stroke="${c.s}" stroke-width="8" fill="none"/>
    <path d="M60 10 L100 50 M150 6 L112 48" stroke="${c.d}" stroke-width="6" stroke-linecap="round"/>
    <circle cx="60" cy="10" r="6" fill="${c.d}"/><circle cx="150" cy="6" r="6" fill="${c.d}"/>`,
  giftcard: (c: Pal) => `
    <rect x="18" y="50" width="164" height="104" rx="14" fill="${c.p}"/>
    <rect x="62" y="50" width="16" height="104" fill="${c.a}"/>
    <rect x="18" y="92" width="164" height="14" fill="${c.a}"/>
    <ellipse cx="56" cy="88" rx="18" ry="10" fill="${c.a}" transform="rotate(-30 56 88)"/>
    <ellipse cx="84" cy="88" rx="18" ry="10" fill="${c.a}" transform="rotate(30 84 88)"/>
    <circle cx="70" cy="98" r="8" fill="${c.s}"/>
    <rect x="112" y="124" width="52" height="10" rx="5" fill="${c.l}" opacity="0.8"/>
    <rect x="130" y="66" width="34" height="24" rx="5" fill="${c.l}" opacity="0.7"/>`,
  ticket: (c: Pal) => `<g transform="rotate(-10 100 100)">
    <path d="M20 56 H180 V86 A14 14 0 0 0 180 114 V144 H20 V114 A14 14 0 0 0 20 86 Z" fill="${c.p}"/>
    <path d="M140 60 V140" stroke="${c.l}" stroke-width="4" stroke-dasharray="6 6"/>
    <path d="M78 74 L86 92 L106 94 L91 107 L96 126 L78 116 L60 126 L65 107 L50 94 L70 92 Z" fill="${c.a}"/>
    <rect x="150" y="78" width="18" height="44" rx="4" fill="${c.s}"/></g>`,
  giftbox: (c: Pal) => `
    <ellipse cx="78" cy="46" rx="26" ry="15" fill="${c.a}" transform="rotate(-25 78 46)"/>
    <ellipse cx="122" cy="46" rx="26" ry="15" fill="${c.a}" transform="rotate(25 122 46)"/>
    <rect x="38" y="84" width="124" height="96" rx="8" fill="${c.p}"/>
    <rect x="28" y="60" width="144" height="32" rx="8" fill="${c.s}"/>
    <rect x="90" y="60" width="20" height="120" fill="${c.a}"/>
    <circle cx="100" cy="58" r="11" fill="${c.a}"/>`,
  chefhat: (c: Pal) => `
    <circle cx="64" cy="78" r="32" fill="#ffffff"/><circle cx="100" cy="60" r="38" fill="#ffffff"/><circle cx="136" cy="78" r="32" fill="#ffffff"/>
    <rect x="56" y="80" width="88" height="60" fill="#ffffff"/>
    <rect x="56" y="130" width="88" height="40" rx="6" fill="${c.p}"/>
    <path d="M76 96 V128 M100 92 V128 M124 96 V128" stroke="${c.m}" stroke-width="3"/>
    <rect x="56" y="146" width="88" height="8" fill="${c.a}"/>`,
  balloon: (c: Pal) => `
    <path d="M100 12 C40 12 26 64 46 100 C58 122 80 132 86 144 H114 C120 132 142 122 154 100 C174 64 160 12 100 12 Z" fill="${c.p}"/>
    <path d="M100 12 C80 12 70 64 78 100 C82 120 88 132 92 144 H108 C112 132 118 120 122 100 C130 64 120 12 100 12 Z" fill="${c.a}"/>
    <path d="M100 12 C96 40 96 110 100 144" stroke="${c.l}" stroke-width="5" fill="none"/>
    <path d="M88 144 L84 162 M112 144 L116 162" stroke="${c.d}" stroke-width="3"/>
    <rect x="80" y="160" width="40" height="26" rx="4" fill="#b9814f"/>
    <path d="M80 168 H120" stroke="#8a5a33" stroke-width="3"/>`,
  wineglass: (c: Pal) => `
    <path d="M56 24 H104 Q108 86 80 100 Q52 86 56 24 Z" fill="${c.l}" opacity="0.85" transform="rotate(-10 80 100)"/>
    <path d="M57 54 H103 Q102 88 80 98 Q58 88 57 54 Z" fill="${hsl(345, 60, 38)}" transform="rotate(-10 80 100)"/>
    <rect x="76" y="98" width="7" height="66" fill="${c.l}" transform="rotate(-10 80 100)"/>
    <ellipse cx="92" cy="168" rx="24" ry="6" fill="${c.l}"/>
    <path d="M124 40 H168 L164 168 H128 Z" fill="${hsl(140, 40, 28)}"/>
    <rect x="136" y="14" width="20" height="30" rx="3" fill="${hsl(140, 40, 22)}"/>
    <rect x="130" y="96" width="32" height="40" rx="4" fill="${c.l}"/><circle cx="146" cy="116" r="8" fill="${c.a}"/>`,
  spa: (c: Pal) => `
    <ellipse cx="100" cy="150" rx="80" ry="22" fill="${c.s}"/>
    <ellipse cx="100" cy="132" rx="56" ry="18" fill="${c.m}"/>
    <ellipse cx="100" cy="108" rx="44" ry="16" fill="${c.d}"/>
    <ellipse cx="100" cy="88" rx="32" ry="13" fill="${c.m}"/>
    <path d="M100 22 Q124 48 100 72 Q76 48 100 22 Z" fill="${c.p}"/>
    <path d="M100 72 Q70 66 64 40 Q92 44 100 72 Z M100 72 Q130 66 136 40 Q108 44 100 72 Z" fill="${c.a}"/>`,
  vase: (c: Pal) => `
    <path d="M78 22 H122 V40 Q156 62 154 112 Q150 170 100 180 Q50 170 46 112 Q44 62 78 40 Z" fill="${c.p}"/>
    <rect x="74" y="18" width="52" height="10" rx="5" fill="${c.s}"/>
    <path d="M52 100 Q100 120 148 100" stroke="${c.a}" stroke-width="8" fill="none"/>
    <path d="M50 126 Q100 146 150 126" stroke="${c.l}" stroke-width="5" fill="none"/>
    <path d="M66 60 Q60 90 62 110" stroke="${c.l}" stroke-width="6" fill="none" opacity="0.4" stroke-linecap="round"/>`,
  key: (c: Pal) => `<g transform="rotate(-40 100 100)">
    <circle cx="60" cy="100" r="38" fill="${c.a}"/>
    <circle cx="60" cy="100" r="16" fill="${c.l}"/>
    <rect x="92" y="92" width="92" height="16" rx="4" fill="${c.a}"/>
    <rect x="150" y="106" width="12" height="22" rx="3" fill="${c.a}"/>
    <rect x="168" y="106" width="12" height="30" rx="3" fill="${c.a}"/></g>
    <circle cx="100" cy="100" r="86" fill="none" stroke="${c.p}" stroke-width="8" stroke-dasharray="18 12"/>`,
  mountain: (c: Pal) => `
    <path d="M6 176 L74 60 L118 132 L140 100 L194 176 Z" fill="${c.p}"/>
    <path d="M74 60 L94 94 L82 88 L72 100 L60 84 Z" fill="${c.l}"/>
    <path d="M140 100 L154 120 L140 116 L130 124 Z" fill="${c.l}"/>
    <path d="M74 60 L118 132 L100 176 H194 L140 100 L118 132" fill="${c.s}" opacity="0.5"/>
    <path d="M74 60 V24" stroke="${c.d}" stroke-width="4"/><path d="M74 24 L100 32 L74 40 Z" fill="${c.a}"/>
    <circle cx="160" cy="40" r="16" fill="${c.a}"/>`,
  flowers: (c: Pal) => {
    const flower = (x: number, y: number, col: string) =>
      [0, 72, 144, 216, 288].map((r) => `<ellipse cx="${x}" cy="${y - 12}" rx="9" ry="14" fill="${col}" transform="rotate(${r} ${x} ${y})"/>`).join("") +
      `<circle cx="${x}" cy="${y}" r="8" fill="#ffd866"/>`;
    return `
      <path d="M100 120 L70 60 M100 120 L100 44 M100 120 L132 62 M100 120 L52 92 M100 120 L150 94" stroke="#3f9a62" stroke-width="5"/>
      ${flower(70, 60, c.p)}${flower(100, 42, c.a)}${flower(132, 62, hsl(330, 65, 65))}${flower(52, 92, c.l)}${flower(150, 94, c.p)}
      <path d="M60 114 H140 L120 184 H80 Z" fill="${c.s}"/>
      <path d="M60 114 L100 150 L140 114" stroke="${c.a}" stroke-width="6" fill="none"/>`;
  },
  telescope: (c: Pal) => `
    <path d="M100 112 L64 186 M100 112 L136 186 M100 112 V186" stroke="${c.d}" stroke-width="6"/>
    <g transform="rotate(-28 100 100)">
      <rect x="30" y="84" width="120" height="34" rx="8" fill="${c.p}"/>
      <rect x="146" y="78" width="26" height="46" rx="6" fill="${c.s}"/>
      <rect x="12" y="92" width="22" height="18" rx="4" fill="${c.d}"/>
      <rect x="80" y="84" width="10" height="34" fill="${c.a}"/></g>
    <circle cx="100" cy="112" r="9" fill="${c.a}"/>
    <path d="M160 20 l4 10 l10 4 l-10 4 l-4 10 l-4 -10 l-10 -4 l10 -4 Z" fill="#fff3b0"/>
    <circle cx="40" cy="34" r="4" fill="#fff3b0"/><circle cx="128" cy="10" r="3" fill="#fff3b0"/>`,
  notebook: (c: Pal) => `
    <rect x="52" y="22" width="112" height="160" rx="10" fill="${c.p}"/>
    <rect x="48" y="26" width="112" height="160" rx="10" fill="${c.s}" opacity="0.25"/>
    <rect x="50" y="22" width="112" height="160" rx="10" fill="${c.p}"/>
    <rect x="136" y="22" width="10" height="160" fill="${c.d}"/>
    <rect x="66" y="50" width="56" height="34" rx="4" fill="${c.l}"/>
    <rect x="118" y="178" width="10" height="20" fill="${c.a}"/>
    <path d="M118 198 l5 -6 l5 6" fill="${c.a}"/>`,
  pen: (c: Pal) => `<g transform="rotate(-45 100 100)">
    <path d="M12 100 L40 90 H50 V110 H40 Z" fill="#d9b15c"/>
    <path d="M12 100 L40 96 V104 Z" fill="${c.d}"/>
    <rect x="48" y="88" width="70" height="24" rx="6" fill="${c.p}"/>
    <rect x="112" y="86" width="78" height="28" rx="10" fill="${c.s}"/>
    <rect x="116" y="86" width="6" height="28" fill="#d9b15c"/>
    <rect x="130" y="80" width="50" height="6" rx="3" fill="#d9b15c"/></g>
    <path d="M40 178 Q80 150 120 176 T186 170" stroke="${c.d}" stroke-width="4" fill="none" stroke-linecap="round"/>`,
  pens: (c: Pal) => {
    const cols = [c.p, c.a, hsl(350, 65, 58), hsl(200, 65, 55), hsl(140, 45, 50)];
    return cols
      .map((col, i) => `<g transform="rotate(${-20 + i * 10} 100 180)">
        <rect x="92" y="34" width="16" height="120" rx="6" fill="${col}"/>
        <path d="M92 154 H108 L100 176 Z" fill="${c.m}"/><rect x="104" y="40" width="4" height="40" rx="2" fill="${c.l}"/></g>`)
      .join("");
  },
  planner: (c: Pal) => {
    let grid = "";
    for (let r = 0; r < 4; r++)
      for (let k = 0; k < 5; k++) grid += `<rect x="${50 + k * 21}" y="${84 + r * 21}" width="16" height="16" rx="3" fill="${r === 1 && k === 3 ? c.a : c.m}"/>`;
    return `<rect x="36" y="40" width="128" height="144" rx="12" fill="${c.p}"/>
      <rect x="42" y="70" width="116" height="106" rx="6" fill="${c.l}"/>${grid}
      ${[62, 86, 110, 134].map((x) => `<rect x="${x}" y="28" width="8" height="26" rx="4" fill="${c.d}"/>`).join("")}`;
  },
  palette: (c: Pal) => {
    const hues = [0, 30, 55, 120, 190, 225, 280, 330];
    const pans = hues.map((h, i) => `<rect x="${32 + (i % 4) * 30}" y="${70 + Math.floor(i / 4) * 36}" width="24" height="28" rx="4" fill="${hsl(h, 70, 52)}"/>`).join("");
    return `<rect x="20" y="56" width="144" height="92" rx="10" fill="${c.m}"/>${pans}
      <rect x="20" y="144" width="144" height="10" rx="4" fill="${c.s}"/>
      <g transform="rotate(-50 160 120)"><rect x="110" y="114" width="80" height="10" rx="5" fill="${c.p}"/>
      <rect x="96" y="114" width="16" height="10" fill="${c.m}"/><path d="M96 114 L78 119 L96 124 Z" fill="${c.d}"/></g>`;
  },
  tape: (c: Pal) => {
    const roll = (x: number, y: number, r: number, col: string) =>
      `<circle cx="${x}" cy="${y}" r="${r}" fill="${col}"/><circle cx="${x}" cy="${y}" r="${r * 0.55}" fill="${c.l}"/><circle cx="${x}" cy="${y}" r="${r * 0.55}" fill="none" stroke="${c.m}" stroke-width="3"/>`;
    const stripes = (x: number, y: number, r: number) =>
      [0, 60, 120, 180, 240, 300].map((a) => `<circle cx="${(x + Math.cos((a * Math.PI) / 180) * r * 0.78).toFixed(1)}" cy="${(y + Math.sin((a * Math.PI) / 180) * r * 0.78).toFixed(1)}" r="${(r * 0.09).toFixed(1)}" fill="${c.l}" opacity="0.8"/>`).join("");
    return (
      roll(60, 132, 46, c.p) + stripes(60, 132, 46) + roll(140, 132, 40, c.a) + roll(100, 60, 42, hsl(330, 55, 70)) + stripes(100, 60, 42)
    );
  },
  envelope: (c: Pal) => `
    <rect x="24" y="66" width="140" height="96" rx="6" fill="${c.p}" transform="rotate(-8 94 114)"/>
    <rect x="36" y="52" width="144" height="100" rx="8" fill="${c.l}"/>
    <path d="M36 56 L108 110 L180 56" fill="none" stroke="${c.m}" stroke-width="4"/>
    <path d="M36 150 L88 102 M180 150 L128 102" stroke="${c.m}" stroke-width="3"/>
    <circle cx="108" cy="110" r="16" fill="${hsl(355, 60, 45)}"/>
    <circle cx="108" cy="110" r="8" fill="${hsl(355, 60, 35)}"/>`,
  pencilcup: (c: Pal) => {
    const pencil = (x: number, h: number, col: string, rot: number) =>
      `<g transform="rotate(${rot} ${x + 7} 150)"><rect x="${x}" y="${150 - h}" width="14" height="${h}" fill="${col}"/>
       <path d="M${x} ${150 - h} L${x + 7} ${136 - h} L${x + 14} ${150 - h} Z" fill="#f3d3a5"/>
       <path d="M${x + 4} ${143 - h} L${x + 7} ${136 - h} L${x + 10} ${143 - h} Z" fill="${c.d}"/></g>`;
    return pencil(66, 110, c.a, -12) + pencil(86, 124, hsl(200, 65, 55), -3) + pencil(106, 104, hsl(350, 65, 58), 8) + pencil(122, 92, hsl(140, 45, 50), 16) +
      `<rect x="52" y="92" width="96" height="92" rx="10" fill="${c.p}"/>
       <rect x="52" y="92" width="96" height="12" rx="6" fill="${c.s}"/>
       <rect x="64" y="120" width="8" height="50" rx="4" fill="${c.l}" opacity="0.35"/>`;
  },
} satisfies Record<string, (c: Pal, v: number) => string>;

// ---------------------------------------------------------------------------
// Illustration rendering
// ---------------------------------------------------------------------------
function svgFor(icon: Icon, seedKey: string, variant: 1 | 2): string {
  const h = hashStr(seedKey);
  const hue = h % 360;
  const c = palette(hue);
  const bgHue = variant === 1 ? hue : hue + 48;
  const bg1 = hsl(bgHue, 72, variant === 1 ? 92 : 88);
  const bg2 = hsl(bgHue + 28, 58, variant === 1 ? 76 : 70);
  const r2 = mulberry32(h ^ (variant * 0x9e3779b9));
  const deco = Array.from({ length: 4 }, () => {
    const x = Math.round(r2() * 400);
    const y = Math.round(r2() * 400);
    const r = Math.round(30 + r2() * 70);
    return `<circle cx="${x}" cy="${y}" r="${r}" fill="#ffffff" opacity="${(0.12 + r2() * 0.14).toFixed(2)}"/>`;
  }).join("");
  const grad = variant === 1 ? `x1="0" y1="0" x2="1" y2="1"` : `x1="1" y1="0" x2="0" y2="1"`;
  // Variant 2: different angle, slight zoom and offset.
  const iconTransform =
    variant === 1
      ? `translate(200 192) scale(1.32) translate(-100 -100)`
      : `translate(204 196) rotate(-12) scale(1.4) scale(-1 1) translate(-100 -100)`;
  const backdrop =
    variant === 1
      ? `<circle cx="200" cy="194" r="166" fill="#ffffff" opacity="0.45"/>`
      : `<rect x="40" y="40" width="320" height="320" rx="64" fill="#ffffff" opacity="0.38" transform="rotate(8 200 200)"/>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="400" viewBox="0 0 400 400">
  <defs>
    <linearGradient id="bg" ${grad}><stop offset="0" stop-color="${bg1}"/><stop offset="1" stop-color="${bg2}"/></linearGradient>
    <filter id="sh" x="-50%" y="-50%" width="200%" height="200%"><feGaussianBlur stdDeviation="10"/></filter>
  </defs>
  <rect width="400" height="400" fill="url(#bg)"/>
  ${deco}
  ${backdrop}
  <ellipse cx="200" cy="344" rx="130" ry="16" fill="${c.d}" opacity="0.22" filter="url(#sh)"/>
  <g transform="${iconTransform}">${ICONS[icon](c, (h >>> 9) % 997)}</g>
</svg>`;
}

async function renderJpeg(svg: string, file: string): Promise<void> {
  await sharp(Buffer.from(svg)).resize(400, 400).jpeg({ quality: 78, mozjpeg: true }).toFile(file);
}

// ---------------------------------------------------------------------------
// Product assembly
// ---------------------------------------------------------------------------
interface Product {
  itemId: string;
  title: string;
  category: string;
  price: { value: string; currency: "USD" };
  shippingOptions: {
    shippingCostType: "FIXED" | "CALCULATED";
    shippingCost: { value: string; currency: "USD" };
  }[];
  condition: "New" | "Used" | "Refurbished";
  description: string;
  image: { imageUrl: string };
  additionalImages: { imageUrl: string }[];
  keywords: string[];
}

interface Draft {
  title: string;
  category: string;
  icon: Icon;
  price: string;
  description: string;
  keywords: string[];
  heavy: boolean;
  usedOk: boolean;
  refurbOk: boolean;
  digital: boolean;
}

function draftsFor(cat: Category): Draft[] {
  const drafts: Draft[] = [];
  const seen = new Set<string>();
  for (const f of cat.fixed ?? []) {
    drafts.push({
      title: f.title,
      category: cat.name,
      icon: f.icon,
      price: f.price[0] === f.price[1] ? f.price[0].toFixed(2) : retailPrice(f.price[0], f.price[1]),
      description: f.desc,
      keywords: [...new Set(f.kw)],
      heavy: !!f.heavy,
      usedOk: !!f.usedOk,
      refurbOk: false,
      digital: cat.name.startsWith("Gift Cards") && !f.heavy,
    });
    seen.add(f.title);
  }
  const types = cat.types ?? [];
  const brands = shuffle(cat.brands);
  let i = 0;
  let guard = 0;
  while (drafts.length < PER_CATEGORY && types.length > 0 && guard++ < 1000) {
    const t = types[i % types.length]!;
    const brand = brands[i % brands.length]!;
    i++;
    const mod = pick(t.mods);
    const attr = pick(t.attrs);
    const title = `${brand} ${mod} ${t.noun}, ${attr}`;
    if (seen.has(title)) continue;
    seen.add(title);
    const desc = pick(t.desc);
    const kw = [...new Set([...shuffle(t.kw).slice(0, 4), brand.toLowerCase().replace(/[^a-z0-9 ]/g, "").trim()])];
    drafts.push({
      title,
      category: cat.name,
      icon: t.icon,
      price: t.fixedPrices ? pick(t.fixedPrices) : retailPrice(t.price[0], t.price[1]),
      description: desc,
      keywords: kw,
      heavy: !!t.heavy,
      usedOk: !!t.usedOk,
      refurbOk: !!t.refurbOk,
      digital: !!t.digital,
    });
  }
  if (drafts.length < PER_CATEGORY) throw new Error(`Not enough products for ${cat.name}`);
  return shuffle(drafts).slice(0, PER_CATEGORY);
}

function fixedShipping(price: number): string {
  if (price >= 99 || rand() < 0.1) return "0.00";
  if (price < 15) return pick(["2.99", "3.49", "3.99"]);
  if (price < 40) return pick(["3.99", "4.99", "5.49", "5.99"]);
  return pick(["5.99", "6.99", "7.99", "9.99"]);
}

async function main(): Promise<void> {
  const drafts = CATEGORIES.flatMap(draftsFor);

  // Pick exactly N heavy items (spread across categories) for CALCULATED shipping.
  const heavyIdx = drafts.map((d, idx) => (d.heavy ? idx : -1)).filter((x) => x >= 0);
  if (heavyIdx.length < CALCULATED_SHIPPING_COUNT) throw new Error(`Only ${heavyIdx.length} heavy items`);
  const calculated = new Set(shuffle(heavyIdx).slice(0, CALCULATED_SHIPPING_COUNT));

  const usedIds = new Set<string>();
  const usedSlugs = new Set<string>();
  const products: Product[] = drafts.map((d, idx) => {
    let num: number;
    do num = randInt(100000, 999999);
    while (usedIds.has(String(num)));
    usedIds.add(String(num));
    const itemId = `v1|GL${num}|0`;

    let slug = slugify(d.title);
    if (slug.length > 60) slug = slug.slice(0, 61).replace(/-[^-]*$/, "");
    if (usedSlugs.has(slug)) slug = `${slug}-${num}`;
    usedSlugs.add(slug);

    const priceNum = Number(d.price);
    let shipping: Product["shippingOptions"][number];
    if (calculated.has(idx)) {
      const est = (12 + rand() * 26).toFixed(0) + pick([".50", ".95", ".00"]);
      shipping = { shippingCostType: "CALCULATED", shippingCost: { value: Number(est).toFixed(2), currency: "USD" } };
    } else {
      shipping = { shippingCostType: "FIXED", shippingCost: { value: d.digital ? "0.00" : fixedShipping(priceNum), currency: "USD" } };
    }

    let condition: Product["condition"] = "New";
    const roll = rand();
    if (d.usedOk && roll < 0.45) condition = "Used";
    else if (d.refurbOk && roll < 0.25) condition = "Refurbished";

    return {
      itemId,
      title: d.title,
      category: d.category,
      price: { value: d.price, currency: "USD" },
      shippingOptions: [shipping],
      condition,
      description: d.description,
      image: { imageUrl: `/catalog/images/${slug}.jpg` },
      additionalImages: [{ imageUrl: `/catalog/images/${slug}-2.jpg` }],
      keywords: d.keywords,
      _icon: d.icon,
      _slug: slug,
    } as Product & { _icon: Icon; _slug: string };
  });

  await mkdir(IMG_DIR, { recursive: true });
  // Remove stale images from previous runs.
  for (const f of await readdir(IMG_DIR)) if (f.endsWith(".jpg")) await rm(path.join(IMG_DIR, f));

  const jobs: (() => Promise<void>)[] = [];
  for (const p of products as (Product & { _icon: Icon; _slug: string })[]) {
    for (const variant of [1, 2] as const) {
      const file = path.join(IMG_DIR, `${p._slug}${variant === 2 ? "-2" : ""}.jpg`);
      jobs.push(() => renderJpeg(svgFor(p._icon, p.itemId, variant), file));
    }
  }
  const CONCURRENCY = 8;
  for (let k = 0; k < jobs.length; k += CONCURRENCY) await Promise.all(jobs.slice(k, k + CONCURRENCY).map((j) => j()));

  const clean = products.map((p) => {
    const { _icon, _slug, ...rest } = p as Product & { _icon: Icon; _slug: string };
    void _icon;
    void _slug;
    return rest;
  });
  await writeFile(path.join(OUT_DIR, "products.json"), JSON.stringify(clean, null, 2) + "\n");

  const counts = new Map<string, number>();
  for (const p of clean) counts.set(p.category, (counts.get(p.category) ?? 0) + 1);
  console.log(`Wrote ${clean.length} products and ${jobs.length} images to ${path.relative(ROOT, OUT_DIR)}`);
  for (const [k, v] of counts) console.log(`  ${k}: ${v}`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});

package demo

// The word lists are small on purpose: the demo must be reproducible from the
// source alone, and a reader should be able to see where every value came from.
// Everything is ASCII so that email local parts can be built from names as-is.

type catNode struct {
	name     string
	nouns    []string // product nouns, only on leaves
	children []catNode
}

type rootCategory struct {
	prefix      string  // SKU prefix
	medianPrice float64 // dollars; prices are log-normal around it
	medianGrams float64
	node        catNode
}

var categoryTree = []rootCategory{
	{"ELC", 110, 600, catNode{name: "Electronics", children: []catNode{
		{name: "Audio", children: []catNode{
			{name: "Headphones", nouns: []string{"Headphones", "Earbuds", "Headset"}},
			{name: "Speakers", nouns: []string{"Bluetooth Speaker", "Soundbar", "Bookshelf Speakers"}},
		}},
		{name: "Computers", children: []catNode{
			{name: "Laptops", nouns: []string{"Laptop", "Ultrabook", "Notebook"}},
			{name: "Monitors", nouns: []string{"Monitor", "Display"}},
			{name: "Keyboards & Mice", nouns: []string{"Keyboard", "Wireless Mouse", "Trackpad"}},
		}},
		{name: "Phone Accessories", children: []catNode{
			{name: "Phone Cases", nouns: []string{"Phone Case", "Folio Case"}},
			{name: "Chargers & Cables", nouns: []string{"USB-C Charger", "Charging Cable", "Power Bank"}},
		}},
		{name: "Cameras", nouns: []string{"Action Camera", "Mirrorless Camera", "Webcam"}},
	}}},
	{"HOM", 38, 1500, catNode{name: "Home & Kitchen", children: []catNode{
		{name: "Kitchen", children: []catNode{
			{name: "Cookware", nouns: []string{"Frying Pan", "Saucepan", "Dutch Oven"}},
			{name: "Small Appliances", nouns: []string{"Kettle", "Toaster", "Blender", "Coffee Maker"}},
			{name: "Cutlery", nouns: []string{"Chef Knife", "Knife Block", "Cutlery Set"}},
		}},
		{name: "Furniture", nouns: []string{"Side Table", "Bookshelf", "Desk Chair"}},
		{name: "Bedding", children: []catNode{
			{name: "Pillows", nouns: []string{"Pillow", "Cushion"}},
			{name: "Duvets", nouns: []string{"Duvet", "Duvet Cover", "Blanket"}},
		}},
		{name: "Lighting", nouns: []string{"Desk Lamp", "Floor Lamp", "LED Strip"}},
	}}},
	{"FSH", 42, 450, catNode{name: "Fashion", children: []catNode{
		{name: "Women", children: []catNode{
			{name: "Dresses", nouns: []string{"Wrap Dress", "Midi Dress", "Summer Dress"}},
			{name: "Tops", nouns: []string{"Blouse", "T-Shirt", "Cardigan"}},
		}},
		{name: "Men", children: []catNode{
			{name: "Shirts", nouns: []string{"Oxford Shirt", "Polo Shirt", "Flannel Shirt"}},
			{name: "Trousers", nouns: []string{"Chinos", "Jeans", "Joggers"}},
		}},
		{name: "Shoes", children: []catNode{
			{name: "Sneakers", nouns: []string{"Sneakers", "Running Shoes"}},
			{name: "Boots", nouns: []string{"Chelsea Boots", "Hiking Boots"}},
		}},
		{name: "Bags & Watches", nouns: []string{"Backpack", "Tote Bag", "Wristwatch"}},
	}}},
	{"SPT", 45, 1200, catNode{name: "Sports & Outdoors", children: []catNode{
		{name: "Fitness", children: []catNode{
			{name: "Yoga", nouns: []string{"Yoga Mat", "Yoga Block", "Resistance Band"}},
			{name: "Weights", nouns: []string{"Dumbbell Set", "Kettlebell", "Weight Plate"}},
		}},
		{name: "Camping", children: []catNode{
			{name: "Tents", nouns: []string{"Dome Tent", "Tarp", "Camping Hammock"}},
			{name: "Sleeping Bags", nouns: []string{"Sleeping Bag", "Sleeping Pad"}},
		}},
		{name: "Cycling", nouns: []string{"Bike Helmet", "Bike Light", "Cycling Gloves"}},
	}}},
	{"BOK", 16, 400, catNode{name: "Books", children: []catNode{
		{name: "Fiction", nouns: []string{"Novel", "Thriller", "Short Stories"}},
		{name: "Non-Fiction", nouns: []string{"Biography", "Cookbook", "Travel Guide"}},
		{name: "Children's Books", nouns: []string{"Picture Book", "Activity Book"}},
	}}},
	{"BTY", 22, 200, catNode{name: "Beauty", children: []catNode{
		{name: "Skincare", nouns: []string{"Face Cream", "Serum", "Cleanser"}},
		{name: "Haircare", nouns: []string{"Shampoo", "Conditioner", "Hair Oil"}},
		{name: "Fragrance", nouns: []string{"Eau de Parfum", "Eau de Toilette"}},
	}}},
	{"TOY", 28, 700, catNode{name: "Toys & Games", children: []catNode{
		{name: "Board Games", nouns: []string{"Board Game", "Card Game"}},
		{name: "Building Sets", nouns: []string{"Building Set", "Construction Kit"}},
		{name: "Puzzles", nouns: []string{"Jigsaw Puzzle", "3D Puzzle"}},
	}}},
	{"GDN", 34, 2500, catNode{name: "Garden", children: []catNode{
		{name: "Garden Tools", nouns: []string{"Pruning Shears", "Hose Reel", "Rake"}},
		{name: "Plants & Seeds", nouns: []string{"Seed Kit", "Planter", "Herb Garden"}},
		{name: "Outdoor Furniture", nouns: []string{"Garden Bench", "Parasol", "Lounge Chair"}},
	}}},
}

var brands = []string{
	"Nordvik", "Alpenrot", "Brightline", "Kestrel", "Oakhaven", "Lumio", "Tessera",
	"Veloce", "Pinecrest", "Solano", "Corvid", "Haldane", "Quillon", "Zephyra",
	"Ironbark", "Bluefin", "Camden", "Everly", "Fjordline", "Marlow",
}

var adjectives = []string{
	"Classic", "Compact", "Premium", "Essential", "Ultra", "Eco", "Pro", "Deluxe",
	"Everyday", "Smart", "Lightweight", "Vintage", "Urban", "Studio",
}

var modelSuffixes = []string{"", "", "", "", " II", " 2", " Plus", " Max", " Mini", " X"}

var firstNames = []string{
	"James", "Mary", "John", "Patricia", "Robert", "Jennifer", "Michael", "Linda",
	"William", "Elizabeth", "David", "Barbara", "Richard", "Susan", "Joseph", "Jessica",
	"Thomas", "Sarah", "Daniel", "Karen", "Matthew", "Nancy", "Anthony", "Lisa",
	"Mark", "Emily", "Paul", "Emma", "Steven", "Olivia", "Andrew", "Sophie",
	"Lukas", "Anna", "Felix", "Laura", "Jonas", "Lena", "Leon", "Julia",
	"Oliver", "Charlotte", "Harry", "Amelia", "George", "Isla", "Jack", "Grace",
	"Louis", "Camille", "Hugo", "Chloe", "Lucas", "Manon", "Daan", "Sanne",
	"Liam", "Noah", "Mia", "Ava", "Marco", "Giulia", "Pablo", "Lucia",
	"Erik", "Astrid", "Jakub", "Zofia", "Ethan", "Nora", "Samuel", "Hannah",
}

var lastNames = []string{
	"Smith", "Johnson", "Williams", "Brown", "Jones", "Garcia", "Miller", "Davis",
	"Rodriguez", "Martinez", "Wilson", "Anderson", "Taylor", "Thomas", "Moore", "Jackson",
	"Martin", "Lee", "Thompson", "White", "Harris", "Clark", "Lewis", "Walker",
	"Mueller", "Schmidt", "Schneider", "Fischer", "Weber", "Meyer", "Wagner", "Becker",
	"Evans", "Roberts", "Wright", "Hughes", "Edwards", "Green", "Hall", "Wood",
	"Bernard", "Dubois", "Durand", "Lefebvre", "Moreau", "Laurent", "de Jong", "Jansen",
	"de Vries", "Bakker", "Visser", "Rossi", "Russo", "Ferrari", "Lopez", "Sanchez",
	"Johansson", "Nilsson", "Larsson", "Nowak", "Kowalski", "Wojcik", "Murphy", "Kelly",
}

var emailDomains = []weighted[string]{
	{"gmail.com", 40}, {"yahoo.com", 9}, {"outlook.com", 10}, {"hotmail.com", 8},
	{"icloud.com", 8}, {"gmx.de", 5}, {"web.de", 4}, {"orange.fr", 3},
	{"proton.me", 3}, {"libero.it", 2}, {"example.com", 2},
}

type country struct {
	code        string
	weight      float64
	callingCode string
	phoneDigits int    // national significant number length
	postal      string // pattern: 9 = digit, A = letter, anything else literal
	cities      []string
	region      string // carrier mix
}

// Skewed on purpose: a handful of countries carry most customers, the rest
// form a long tail, which is what a profiler should report as top-k.
var countries = []country{
	{"US", 34, "1", 10, "99999", []string{"New York", "Los Angeles", "Chicago", "Houston", "Phoenix", "Seattle", "Denver", "Boston", "Austin", "Atlanta"}, "na"},
	{"DE", 14, "49", 11, "99999", []string{"Berlin", "Hamburg", "Munich", "Cologne", "Frankfurt", "Stuttgart", "Leipzig"}, "eu"},
	{"GB", 12, "44", 10, "AA9 9AA", []string{"London", "Manchester", "Birmingham", "Leeds", "Glasgow", "Bristol", "Edinburgh"}, "gb"},
	{"FR", 8, "33", 9, "99999", []string{"Paris", "Lyon", "Marseille", "Toulouse", "Nice", "Nantes", "Bordeaux"}, "eu"},
	{"NL", 6, "31", 9, "9999 AA", []string{"Amsterdam", "Rotterdam", "Utrecht", "The Hague", "Eindhoven"}, "eu"},
	{"CA", 5, "1", 10, "A9A 9A9", []string{"Toronto", "Montreal", "Vancouver", "Calgary", "Ottawa"}, "na"},
	{"ES", 4, "34", 9, "99999", []string{"Madrid", "Barcelona", "Valencia", "Seville", "Bilbao"}, "eu"},
	{"IT", 4, "39", 10, "99999", []string{"Rome", "Milan", "Naples", "Turin", "Bologna"}, "eu"},
	{"SE", 3, "46", 9, "999 99", []string{"Stockholm", "Gothenburg", "Malmo", "Uppsala"}, "eu"},
	{"PL", 2.5, "48", 9, "99-999", []string{"Warsaw", "Krakow", "Wroclaw", "Gdansk"}, "eu"},
	{"AU", 2.5, "61", 9, "9999", []string{"Sydney", "Melbourne", "Brisbane", "Perth"}, "au"},
	{"AT", 1.5, "43", 10, "9999", []string{"Vienna", "Graz", "Salzburg", "Linz"}, "eu"},
	{"BE", 1.5, "32", 9, "9999", []string{"Brussels", "Antwerp", "Ghent", "Liege"}, "eu"},
	{"IE", 1, "353", 9, "A99 A9A9", []string{"Dublin", "Cork", "Galway"}, "eu"},
	{"CH", 1, "41", 9, "9999", []string{"Zurich", "Geneva", "Basel", "Bern"}, "eu"},
	{"DK", 1, "45", 8, "9999", []string{"Copenhagen", "Aarhus", "Odense"}, "eu"},
}

var streetNames = []string{
	"Oak", "Maple", "Cedar", "Park", "Lake", "Hill", "Church", "Station", "Mill",
	"King", "Queen", "Bridge", "River", "Market", "Garden", "Forest", "Harbor", "Elm",
}

var streetSuffixes = []string{"Street", "Avenue", "Road", "Lane", "Drive", "Way", "Place"}

var supplierNames = []string{
	"Shenzhen Brightway Electronics", "Ningbo Harbor Trading", "Rheinland Industriebedarf GmbH",
	"Great Lakes Supply Co.", "Saigon Textile Works", "Pune Precision Tools",
	"Taipei Circuit Partners", "Gdansk Timber Sp. z o.o.", "Veneto Pelletteria S.r.l.",
	"Izmir Cotton Mills", "Monterrey Plasticos S.A.", "Guangzhou Homeware Ltd",
	"Bavaria Outdoor GmbH", "Pacific Rim Imports", "Hanoi Footwear JSC",
	"Jaipur Crafts Export", "Kaohsiung Bicycle Parts", "Lodz Linen Sp. z o.o.",
	"Como Fragrance S.r.l.", "Bursa Home Textiles", "Ohio Valley Paper Co.",
	"Dongguan Toy Factory", "Yokohama Optics Trading", "Stuttgart Kitchen Systems GmbH",
	"Carolina Garden Supply",
}

var supplierCountries = []string{
	"CN", "CN", "DE", "US", "VN", "IN", "TW", "PL", "IT", "TR", "MX", "CN", "DE",
	"US", "VN", "IN", "TW", "PL", "IT", "TR", "US", "CN", "JP", "DE", "US",
}

var couponCodes = []string{"WELCOME10", "SPRING15", "SUMMER20", "FREESHIP", "LOYAL5"}

var warehouses = []string{"EWR1", "DFW1", "AMS1", "FRA1"}

var reviewTitles = [6][]string{
	1: {"Broke after a week", "Do not buy", "Very disappointed", "Not as described"},
	2: {"Not great", "Expected more", "Poor quality"},
	3: {"It's okay", "Average", "Does the job"},
	4: {"Very good", "Happy with it", "Solid purchase", "Good value"},
	5: {"Excellent!", "Love it", "Perfect", "Highly recommend", "Five stars"},
}

var reviewBodies = [6][]string{
	1: {"Stopped working after a few days and support never answered.", "The item arrived damaged and the replacement was no better.", "Cheap materials, nothing like the pictures."},
	2: {"Works, but feels flimsy for the price.", "Delivery was fast but the product is mediocre.", "Sizing is off and the finish is rough."},
	3: {"Does what it says, nothing more.", "Fine for occasional use.", "Decent, though I have seen better at this price."},
	4: {"Good quality and arrived quickly.", "Works well, one minor issue with the packaging.", "Would buy again, solid value."},
	5: {"Exactly what I needed, great quality.", "Absolutely love it, already ordered a second one.", "Fantastic product and super fast shipping.", "Better than expected, highly recommended."},
}

package semantic

import (
	"fmt"
	"math"
	"sort"
	"strings"
)

// lexicon maps each business domain to the words that suggest it, weighted
// 1 (shared with other domains) to 3 (nearly proof on its own). Words are
// singular and lower case.
var lexicon = map[string]map[string]float64{
	"ecommerce": {"order": 3, "product": 3, "cart": 3, "checkout": 3, "sku": 3, "customer": 2, "invoice": 2,
		"supplier": 2, "vendor": 2, "discount": 2, "coupon": 3, "price": 1, "quantity": 1, "category": 1,
		"catalog": 2, "payment": 1, "store": 1, "merchant": 3, "basket": 3, "wishlist": 3, "review": 1,
		"promotion": 2, "refund": 2, "seller": 2, "buyer": 2, "item": 1, "shipper": 1, "sale": 1, "brand": 2,
		"shipping": 1, "unit": 1, "reorder": 2},
	"music": {"album": 3, "artist": 3, "track": 3, "song": 3, "playlist": 3, "genre": 2, "composer": 3,
		"lyric": 3, "band": 3, "musician": 3, "concert": 2, "record": 1, "media": 1, "millisecond": 1,
		"singer": 3, "label": 1, "instrument": 3},
	"film": {"film": 3, "movie": 3, "actor": 3, "actress": 3, "director": 2, "cast": 2, "rental": 2,
		"episode": 3, "season": 1, "studio": 2, "screening": 3, "cinema": 3, "theater": 2, "show": 1,
		"rating": 1, "language": 1, "trailer": 3, "imdb": 3, "box": 1, "office": 1},
	"hr": {"employee": 3, "salary": 3, "department": 2, "payroll": 3, "hire": 3, "job": 2, "position": 1,
		"manager": 1, "leave": 1, "benefit": 2, "applicant": 3, "candidate": 2, "recruitment": 3,
		"attendance": 2, "timesheet": 3, "performance": 1, "staff": 2, "commission": 1, "bonus": 2,
		"vacation": 3, "termination": 3, "dept": 2, "emp": 2},
	"finance": {"account": 2, "transaction": 2, "balance": 3, "loan": 3, "bank": 3, "branch": 1,
		"deposit": 3, "withdrawal": 3, "credit": 2, "debit": 3, "interest": 2, "ledger": 3, "journal": 1,
		"fund": 2, "portfolio": 3, "stock": 1, "trade": 2, "security": 1, "asset": 2, "currency": 2,
		"exchange": 1, "card": 1, "statement": 1, "tax": 1, "budget": 2, "expense": 2, "revenue": 2,
		"payment": 1, "invoice": 1, "fiscal": 3, "dividend": 3, "broker": 3, "investor": 3, "mortgage": 2,
		"insurance": 1, "policy": 1, "claim": 1},
	"logistics": {"shipment": 3, "shipper": 3, "carrier": 3, "warehouse": 3, "freight": 3, "delivery": 3,
		"route": 2, "vehicle": 2, "driver": 2, "package": 2, "parcel": 3, "tracking": 2, "dispatch": 3,
		"fleet": 3, "depot": 3, "container": 2, "cargo": 3, "ship": 2, "truck": 3, "load": 1, "stop": 1,
		"manifest": 2, "consignment": 3, "courier": 3},
	"healthcare": {"patient": 3, "doctor": 3, "physician": 3, "nurse": 3, "hospital": 3, "diagnosis": 3,
		"treatment": 3, "prescription": 3, "medication": 3, "drug": 2, "appointment": 2, "clinic": 3,
		"admission": 3, "ward": 2, "procedure": 2, "allergy": 3, "symptom": 3, "disease": 3, "lab": 1,
		"insurance": 1, "medical": 3, "visit": 1, "medicine": 3, "dose": 2, "surgery": 3, "vaccine": 3},
	"education": {"student": 3, "course": 3, "teacher": 3, "instructor": 3, "professor": 3,
		"enrollment": 3, "enroll": 3, "grade": 2, "class": 2, "classroom": 3, "semester": 3, "exam": 3,
		"school": 3, "faculty": 2, "lecture": 3, "assignment": 2, "curriculum": 3, "campus": 3, "degree": 2,
		"tuition": 3, "transcript": 3, "gpa": 3, "dorm": 3, "lesson": 3, "major": 1, "section": 1, "prerequisite": 3},
	"travel": {"flight": 3, "airport": 3, "airline": 3, "passenger": 3, "booking": 2, "reservation": 2,
		"hotel": 3, "room": 1, "trip": 2, "destination": 2, "aircraft": 3, "departure": 3, "arrival": 3,
		"itinerary": 3, "seat": 2, "ticket": 1, "tour": 2, "guest": 1, "checkin": 2, "visa": 2, "route": 1,
		"pilot": 3, "fare": 2},
	"sports": {"team": 3, "player": 3, "match": 2, "game": 2, "league": 3, "season": 2, "coach": 3,
		"score": 1, "goal": 2, "tournament": 3, "stadium": 3, "competition": 2, "championship": 3, "race": 2,
		"athlete": 3, "club": 2, "fixture": 2, "referee": 3, "medal": 3, "olympic": 3, "win": 2, "loss": 1,
		"draft": 2, "wrestler": 3, "boxer": 3, "fighter": 2, "bout": 3, "golfer": 3, "racer": 3, "gymnast": 3},
	"real_estate": {"property": 3, "listing": 2, "agent": 1, "lease": 3, "tenant": 3, "landlord": 3,
		"rent": 2, "apartment": 3, "building": 2, "unit": 1, "mortgage": 3, "realtor": 3, "bedroom": 3,
		"bathroom": 3, "sqft": 3, "house": 2, "estate": 2, "appraisal": 3, "zoning": 3},
	"crm": {"lead": 3, "opportunity": 3, "contact": 2, "account": 1, "campaign": 2, "deal": 3,
		"pipeline": 3, "activity": 1, "task": 1, "note": 1, "ticket": 2, "case": 1, "call": 1,
		"prospect": 3, "sale": 2, "rep": 2, "quota": 3, "territory": 2, "region": 1, "customer": 1,
		"segment": 1, "support": 1},
	"manufacturing": {"part": 2, "component": 3, "assembly": 3, "bom": 3, "machine": 3, "plant": 3,
		"factory": 3, "production": 3, "inventory": 2, "stock": 1, "batch": 2, "lot": 2, "supplier": 1,
		"material": 3, "defect": 3, "quality": 1, "operation": 1, "shift": 2, "maintenance": 2,
		"equipment": 2, "product": 1, "warehouse": 1, "workorder": 3},
	"social": {"user": 2, "post": 3, "comment": 3, "like": 3, "follower": 3, "follow": 3, "friend": 3,
		"message": 2, "tweet": 3, "hashtag": 3, "tag": 1, "share": 2, "profile": 2, "group": 1, "feed": 3,
		"reaction": 3, "thread": 2, "forum": 3, "vote": 2, "reply": 3, "mention": 3},
	"government": {"citizen": 3, "permit": 3, "license": 2, "agency": 3, "department": 1, "election": 3,
		"voter": 3, "candidate": 1, "district": 2, "county": 3, "municipality": 3, "census": 3, "tax": 2,
		"court": 3, "law": 3, "legislation": 3, "official": 2, "ministry": 3, "budget": 1, "grant": 2,
		"constituency": 3, "senator": 3, "representative": 1, "state": 1},
}

const (
	// tableWeight makes a word in a table name count more than one in a
	// column name: tables say what the database is about.
	tableWeight = 2.0
	// domainMinScore is the least evidence for naming a domain at all.
	domainMinScore = 4.0
	// domainMinLead is how far the best domain must be ahead of the second,
	// as a share of its own score.
	domainMinLead   = 0.2
	domainMaxConfid = 0.85
)

// domainScore is one domain's score with the words that earned it.
type domainScore struct {
	Label   string
	Score   float64
	Tables  []string // matched table words
	Columns []string // matched column words
}

// domainGuess is the outcome of scoring the lexicon.
type domainGuess struct {
	Label      string
	Confidence float64
	Evidence   []string
	Scores     []domainScore // best first
}

// scoreDomains scores every domain against the words of the table names
// and the column names. Each word counts once per domain, at its table
// weight if any table name holds it, so that a key repeated in every table
// (customer_id) does not outweigh the tables themselves.
func scoreDomains(tables []string, columns []string) domainGuess {
	tw := wordSet(tables)
	cw := wordSet(columns)
	var scores []domainScore
	for label, words := range lexicon {
		s := domainScore{Label: label}
		for w, weight := range words {
			switch {
			case tw[w]:
				s.Score += weight * tableWeight
				s.Tables = append(s.Tables, w)
			case cw[w]:
				s.Score += weight
				s.Columns = append(s.Columns, w)
			}
		}
		if s.Score > 0 {
			sort.Strings(s.Tables)
			sort.Strings(s.Columns)
			scores = append(scores, s)
		}
	}
	sort.Slice(scores, func(i, j int) bool {
		if scores[i].Score != scores[j].Score {
			return scores[i].Score > scores[j].Score
		}
		return scores[i].Label < scores[j].Label
	})
	g := domainGuess{Label: "unknown", Confidence: 0.1, Scores: scores}
	if len(scores) == 0 || scores[0].Score < domainMinScore {
		g.Evidence = []string{"no domain's vocabulary matched enough table or column names"}
		if len(scores) > 0 {
			g.Evidence = append(g.Evidence, scoreLine(scores[0]))
		}
		return g
	}
	best := scores[0]
	second := 0.0
	if len(scores) > 1 {
		second = scores[1].Score
	}
	lead := (best.Score - second) / best.Score
	if lead < domainMinLead {
		g.Confidence = 0.2
		g.Evidence = []string{fmt.Sprintf("no clear domain: %s (%.0f) and %s (%.0f) score alike",
			best.Label, best.Score, scores[1].Label, second)}
		return g
	}
	// Confidence grows with the amount of evidence and with the lead over
	// the runner-up: one matched table name never reads as certainty, and
	// neither does a close race.
	strength := math.Min(1, best.Score/20)
	g.Label = best.Label
	g.Confidence = round2(math.Min(domainMaxConfid, 0.25+0.6*strength*(0.4+0.6*lead)))
	if len(best.Tables) > 0 {
		g.Evidence = append(g.Evidence, "tables: "+strings.Join(best.Tables, ", "))
	}
	if len(best.Columns) > 0 {
		g.Evidence = append(g.Evidence, "columns: "+strings.Join(best.Columns, ", "))
	}
	line := fmt.Sprintf("score %.0f", best.Score)
	if len(scores) > 1 {
		line += fmt.Sprintf(" against %.0f for %s", second, scores[1].Label)
	}
	g.Evidence = append(g.Evidence, line)
	return g
}

func scoreLine(s domainScore) string {
	return fmt.Sprintf("best: %s (%.0f; %s)", s.Label, s.Score, strings.Join(append(s.Tables, s.Columns...), ", "))
}

// wordSet is the singular words of names, and each name's words joined
// (work_order → workorder) for compound lexicon entries.
func wordSet(names []string) map[string]bool {
	m := map[string]bool{}
	for _, n := range names {
		toks := Tokenize(n)
		for i, t := range toks {
			s := Singularize(t)
			m[s] = true
			toks[i] = s
		}
		if len(toks) > 1 {
			m[strings.Join(toks, "")] = true
		}
	}
	return m
}

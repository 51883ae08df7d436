package semantic

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/discover-db/discover/naming"
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
	"retail": {"store": 3, "pos": 3, "cashier": 3, "register": 2, "till": 3, "shelf": 3, "aisle": 3,
		"receipt": 3, "loyalty": 2, "barcode": 2, "planogram": 3, "footfall": 3, "outlet": 2, "franchise": 2,
		"markdown": 2, "sale": 1, "product": 1, "sku": 1, "basket": 1, "shopper": 3, "checkout": 1,
		"stock": 1, "promotion": 1, "branch": 1, "terminal": 2, "tender": 2},
	"insurance": {"policy": 3, "claim": 3, "premium": 3, "insured": 3, "policyholder": 3, "underwriting": 3,
		"underwriter": 3, "coverage": 2, "deductible": 3, "beneficiary": 2, "adjuster": 3, "broker": 1,
		"peril": 3, "endorsement": 2, "rider": 1, "actuarial": 3, "indemnity": 3, "loss": 1, "agent": 1,
		"insurer": 3, "quote": 1, "renewal": 1, "exposure": 2, "reserve": 1, "settlement": 2, "insurance": 3},
	"legal": {"case": 2, "matter": 3, "court": 2, "judge": 3, "attorney": 3, "lawyer": 3, "counsel": 2,
		"litigation": 3, "plaintiff": 3, "defendant": 3, "verdict": 3, "hearing": 2, "docket": 3,
		"filing": 2, "statute": 3, "contract": 2, "clause": 3, "jurisdiction": 3, "law": 2, "firm": 1,
		"billable": 3, "retainer": 3, "client": 1, "party": 1, "appeal": 3, "motion": 2, "subpoena": 3},
	"saas": {"subscription": 3, "plan": 2, "tenant": 2, "workspace": 3, "seat": 3, "license": 2, "trial": 2,
		"feature": 2, "churn": 3, "mrr": 3, "arr": 3, "billing": 2, "invoice": 1, "usage": 1, "api": 3,
		"apikey": 3, "webhook": 3, "organization": 1, "org": 2, "account": 1, "user": 1, "tier": 2,
		"onboarding": 2, "integration": 2, "event": 1, "session": 1, "entitlement": 3, "addon": 3,
		"renewal": 1, "signup": 1, "app": 1},
	"telecom": {"subscriber": 3, "msisdn": 3, "imsi": 3, "imei": 3, "iccid": 3, "sim": 3, "tariff": 3,
		"roaming": 3, "cdr": 3, "call": 2, "sms": 3, "handset": 3, "carrier": 2, "network": 2, "cell": 2,
		"tower": 3, "antenna": 3, "bandwidth": 2, "usage": 2, "voice": 2, "prepaid": 3, "postpaid": 3,
		"topup": 3, "recharge": 3, "porting": 3, "mnp": 3, "line": 1, "plan": 1, "operator": 2,
		"minute": 1, "allowance": 2, "signal": 2, "spectrum": 3, "broadband": 3, "fiber": 2, "circuit": 2,
		"voicemail": 3, "caller": 3, "callee": 3, "dialed": 3, "mobile": 1},
	"media": {"article": 3, "author": 2, "publisher": 3, "publication": 3, "editor": 3, "headline": 3,
		"journalist": 3, "newsletter": 3, "subscription": 1, "channel": 1, "broadcast": 3, "podcast": 3,
		"episode": 2, "show": 1, "video": 2, "stream": 2, "viewer": 3, "content": 2, "ad": 2,
		"advertiser": 3, "impression": 2, "pageview": 3, "magazine": 3, "newspaper": 3, "story": 2,
		"byline": 3, "program": 1, "audience": 2},
	"research": {"experiment": 3, "study": 3, "sample": 2, "specimen": 3, "assay": 3, "measurement": 2,
		"observation": 2, "participant": 2, "cohort": 3, "protocol": 2, "researcher": 3, "lab": 2,
		"publication": 2, "grant": 2, "hypothesis": 3, "variable": 1, "result": 1, "instrument": 1,
		"survey": 3, "questionnaire": 3, "respondent": 3, "citation": 3, "dataset": 2, "trial": 1,
		"investigator": 3, "site": 1, "reading": 1, "sensor": 2},
	"gaming": {"player": 2, "game": 2, "level": 2, "quest": 3, "achievement": 3, "guild": 3, "clan": 3,
		"leaderboard": 3, "match": 1, "session": 1, "score": 1, "character": 2, "avatar": 2, "loot": 3,
		"xp": 3, "coin": 1, "gem": 2, "skin": 1, "battle": 3, "lobby": 3, "spawn": 3, "npc": 3,
		"server": 1, "reward": 2, "inventory": 1, "item": 1, "realm": 3, "boss": 2, "raid": 3},
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
	Values  []string // matched words of the columns' frequent values
}

// domainGuess is the outcome of scoring the lexicon.
type domainGuess struct {
	Label      string
	Confidence float64
	Evidence   []string
	Scores     []domainScore // best first
}

// scoreDomains scores every domain against the words of the table names
// and the column names.
func scoreDomains(tables []string, columns []string) domainGuess {
	return scoreVocabulary(tables, columns, nil)
}

// valueWeight is what a word among a code list's values counts: the values
// of status and type columns say what the rows are about ("roaming",
// "refund"), but less surely than the names a designer chose.
const valueWeight = 0.5

// scoreVocabulary scores every domain against the words of the table names,
// the column names and the frequent values of code-list columns. Each word
// counts once per domain, at its table weight if any table name holds it,
// so that a key repeated in every table (customer_id) does not outweigh the
// tables themselves.
func scoreVocabulary(tables, columns, values []string) domainGuess {
	tw := wordSet(tables)
	cw := wordSet(columns)
	vw := wordSet(values)
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
			case vw[w]:
				s.Score += weight * valueWeight
				s.Values = append(s.Values, w)
			}
		}
		if s.Score > 0 {
			sort.Strings(s.Tables)
			sort.Strings(s.Columns)
			sort.Strings(s.Values)
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
		g.Evidence = []string{fmt.Sprintf("no clear domain: %s (%s) and %s (%s) score alike",
			best.Label, scoreText(best.Score), scores[1].Label, scoreText(second))}
		for _, s := range scores[:min(3, len(scores))] {
			g.Evidence = append(g.Evidence, scoreLine(s))
		}
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
	if len(best.Values) > 0 {
		g.Evidence = append(g.Evidence, "values: "+strings.Join(best.Values, ", "))
	}
	line := "score " + scoreText(best.Score)
	if len(scores) == 1 {
		line += "; runner-up: none (no other domain's words matched)"
	}
	if len(scores) > 1 {
		var ups []string
		for _, s := range scores[1:min(3, len(scores))] {
			ups = append(ups, fmt.Sprintf("%s (%s: %s)", s.Label, scoreText(s.Score), strings.Join(s.words(), ", ")))
		}
		line += "; runner-up: " + strings.Join(ups, "; ")
	}
	g.Evidence = append(g.Evidence, line)
	return g
}

// words are the matched words of a score, tables first.
func (s domainScore) words() []string {
	return append(append(append([]string{}, s.Tables...), s.Columns...), s.Values...)
}

// scoreText writes a score without a needless decimal: 23, 7.5.
func scoreText(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

func scoreLine(s domainScore) string {
	return fmt.Sprintf("best: %s (%s; %s)", s.Label, scoreText(s.Score), strings.Join(s.words(), ", "))
}

// wordSet is the singular words of names, and each name's words joined
// (work_order → workorder) for compound lexicon entries.
func wordSet(names []string) map[string]bool {
	m := map[string]bool{}
	for _, n := range names {
		toks := naming.Words(n)
		for i, t := range toks {
			s := naming.Singular(t)
			m[s] = true
			toks[i] = s
		}
		if len(toks) > 1 {
			m[strings.Join(toks, "")] = true
		}
	}
	return m
}

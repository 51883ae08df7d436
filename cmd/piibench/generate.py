#!/usr/bin/env python3
"""Builds piibench's data: four held-out SQLite databases of invented
applications in four languages, and a fifth that is not held out, filled with synthetic personal data valid in
format (check digits included) and with decoys that are not personal data,
and the truth of every column. Standard library only; a fixed seed per
database, so the output is the same whatever PYTHONHASHSEED; about a second.

    python3 cmd/piibench/generate.py OUT_DIR
    go run ./cmd/piibench -data OUT_DIR -v

Writes OUT_DIR/<name>.db, MANIFEST.tsv (name, file, held_out: yes or no) and
TRUTH.tsv (db, table, column, category), then checks them (check()). Ages are 18 to 90 on 2024-06-30.

- personal_de: a German HR system, German snake_case: mitarbeiter (vorname,
  nachname, geburtsdatum DD.MM.YYYY, strasse, plz, telefonnummer (030) 1234567,
  0171 2345678 or +49 ..., steuer_id: Steuer-IdNr with its ISO 7064 MOD 11,10
  digit, sv_nummer: Rentenversicherungsnummer with its check digit,
  bankverbindung: spaced DE IBAN), projekte, anmeldungen (a login log),
  bewerbungen (name "Nachname, Vorname", anschrift in one line, geburtstag
  ISO), notfallkontakte.
- tienda_es: a Spanish and Mexican shop with Brazilian sellers, id_ before
  keys: clientes (nombre, apellidos with two surnames, correo, telefono
  612 34 56 78 or +34 ..., dni: DNI or NIE with its letter, NULL for Mexicans,
  fecha_nacimiento DD/MM/YYYY, direccion "Calle Mayor, 12, 3º B"), productos,
  pedidos, pagos (tarjeta: spaced cards, iban: spaced ES IBANs, each NULL when
  the other method paid), vendedores (cpf 123.456.789-09).
- crm_fr_nl: an insurance broker's CRM, French and Dutch tables: contacts
  (prenom, nom, courriel, telephone 01 23 45 67 89, adresse "12 bis rue Victor
  Hugo", date_naissance DD/MM/YYYY, numero_securite_sociale: NIR and key),
  relaties (voornaam, tussenvoegsel, achternaam, mobiel 06-12345678, postcode
  1234 AB, geboortedatum DD-MM-YYYY, bsn 11-proof, rekeningnummer: NL IBAN),
  activites, formulaires_web.
- fintech_us: a US card and payments app, English snake_case: customers
  (first_name, ssn 123-45-6789 avoiding 000, 666 and 9xx, dob ISO,
  address_line1/2, zip or ZIP+4, signup_ip), cards, transactions,
  wire_transfers (IBANs of DE, ES, FR, NL, IT, GB), support_tickets,
  kyc_checks (id_value: SSN, Swedish personnummer, CPF, BSN or DNI).
- clinica_it_pl_se: a clinic network in Italy, Poland and Sweden, written
  after privacy's rules for names and addresses by their values and for the
  newer national numbers, and asserted column by column by cmd/discover's
  TestPrivacyInManyLanguages: not held out, so piibench's held-out figures
  are those of the four above. pazienti (nome, cognome, codice_fiscale,
  indirizzo "Via Roma, 12/A", citta, telefono, data_nascita, medico: a
  doctor's full name), pacjenci (imie, nazwisko, numer: PESEL, adres
  "ul. Długa 12/4", miasto), patienter (fornamn, efternamn, personnummer,
  gatuadress "Storgatan 14", ort, kundnummer: Norwegian fødselsnummer),
  fornitori (decoys: firms named after families with their legal forms,
  products, categories, cities, SKUs, partite IVA with their Luhn digit;
  referente: a contact's full name), personale (nominativo: full names,
  codice_dip: UK NINO, riferimento: NHS numbers).

Names that do not say what they hold: kontakt, info (e-mail); wert, dato1
(phone); projektleiter, titular, contacto, responsable, beneficiary, agent
(names); destino (address); id_value (national id); instrument (card); cuenta,
ref (IBAN); quelle, origen, source (IP); dato2 (date of birth). Cards are Visa,
Mastercard and Amex passing Luhn, spaced or not; IBANs have valid mod-97
digits, spaced or not (a BBAN's own national key, such as Spain's DC, is
random). free_text columns embed an e-mail, a phone or (fintech) a card number
in 2-10% of their non-NULL values; the other free text embeds none.

Decoys, all none: order, project and policy numbers, SKUs, EAN-13 barcodes,
versions (1.2.3, 10.0.19041.1, and 4.2.1.7, which parses as IPv4), amounts,
quantities, status codes, event timestamps and other dates written like birth
dates (eintrittsdatum DD.MM.YYYY, ingangsdatum DD-MM-YYYY), product names (a
column named nombre), company names (some made of surnames), cities and birth
places alone, country, state and currency codes, 5-digit cost centres shaped
like German postal codes, UUIDs, password and content hashes, BICs, user
names, and 13-19 digit numeric ids that mostly fail Luhn.

Truth rules: a column's category is what it holds, not what a tool might
find. A city, state or country alone is none; a postal code, a street line or
a part of one (address_line2 "Apt 4B") is postal_address. A person's name or
part of one (tussenvoegsel "van der", a cardholder's upper-case name, a
project lead, an agent, a company's contact person) is person_name; a
company's name is none. A login username is none unless it is an e-mail
address. Free text is free_text only if some values embed an e-mail, phone or
card number, else none. Every national identifier is national_id. A name
says its category when it holds a word for it in its language: a role (agent,
responsable) does not say "name"; bankverbindung and rekeningnummer say bank
account, so they say iban.
"""
import collections
import datetime as dt
import hashlib
import ipaddress
import os
import random
import re
import sqlite3
import sys
import unicodedata
import uuid

REF = dt.date(2024, 6, 30)  # "today": ages are counted at this date
EPOCH = dt.datetime(2019, 1, 1)
NONE, EMAIL, PHONE, NAME, ADDR = "none", "email", "phone", "person_name", "postal_address"
NID, CARD, IBAN, IP, DOB, TEXT = "national_id", "payment_card", "iban", "ip_address", "date_of_birth", "free_text"
CATEGORIES = (EMAIL, PHONE, NAME, ADDR, NID, CARD, IBAN, IP, DOB, TEXT, NONE)
Col = collections.namedtuple("Col", "db table column type category hidden extra")
SPEC = []  # every column written, in order
TEXT_CARDS = []  # card numbers written inside free text


def W(s, sep=None):
    return s.split(sep)


# Names by language: "female first names; male first names; surnames" (surnames split on | where they hold spaces).
NAMES = {lang: tuple(W(part.strip(), "|" if "|" in part else None) for part in spec.split(";")) for lang, spec in {
    "de": "Anna Lena Lea Marie Sophie Laura Julia Katharina Sabine Petra Ursula Monika Claudia Andrea Stefanie Jana Heike "
          "Birgit Karin Susanne Nicole Melanie Sandra Christina Johanna; Lukas Leon Jonas Felix Maximilian Paul Thomas "
          "Michael Andreas Stefan Klaus Jürgen Wolfgang Uwe Frank Dieter Matthias Tobias Sebastian Jörg Günter Horst Ralf "
          "Markus Florian; Müller Schmidt Schneider Fischer Weber Meyer Wagner Becker Schulz Hoffmann Schäfer Koch Bauer "
          "Richter Klein Wolf Schröder Neumann Schwarz Zimmermann Braun Krüger Hofmann Hartmann Lange Schmitt Werner Krause "
          "Meier Lehmann Köhler Herrmann König Walter Mayer Huber Kaiser Fuchs Peters Scholz Möller Weiß Jung Hahn Vogel "
          "Friedrich Keller Günther Berger Winkler Roth Beck Lorenz Baumann Franke Albrecht Böhm Winter Kraus Vogt Stein "
          "Jäger Otto Sommer Groß Seidel Heinrich Brandt Haas",
    "es": "María Carmen Ana Isabel Laura Lucía Marta Elena Sofía Paula Cristina Pilar Rosa Raquel Beatriz Nuria Silvia Alba "
          "Valentina Camila Ximena Guadalupe Daniela Fernanda; Antonio José Manuel Francisco David Juan Javier Daniel Carlos "
          "Jesús Alejandro Miguel Pablo Sergio Jorge Luis Alberto Fernando Raúl Diego Andrés Santiago Mateo Rodrigo Alfonso; "
          "García Rodríguez González Fernández López Martínez Sánchez Pérez Gómez Martín Jiménez Ruiz Hernández Díaz Moreno "
          "Muñoz Álvarez Romero Alonso Gutiérrez Navarro Torres Domínguez Vázquez Ramos Gil Ramírez Serrano Blanco Molina "
          "Morales Suárez Ortega Delgado Castro Ortiz Rubio Marín Sanz Núñez Iglesias Medina Garrido Cortés Castillo Santos "
          "Lozano Guerrero Cano Prieto Méndez Cruz Flores Herrera Peña",
    "pt": "Ana Beatriz Mariana Larissa Juliana Fernanda Camila Letícia Aline Patrícia Gabriela Luana; João Pedro Lucas Gabriel "
          "Rafael Thiago Bruno Felipe Gustavo Matheus Rodrigo Leonardo; Silva Santos Oliveira Souza Rodrigues Ferreira Alves "
          "Pereira Lima Gomes Costa Ribeiro Martins Carvalho Almeida Lopes Soares Fernandes Vieira Barbosa Rocha Dias Andrade",
    "fr": "Marie Nathalie Isabelle Sylvie Catherine Sophie Camille Léa Chloé Manon Emma Inès Julie Claire Aurélie Céline Hélène "
          "Margaux; Jean Pierre Michel Philippe Alain Nicolas Christophe Laurent Julien Thomas Antoine Lucas Hugo Louis Mathieu "
          "Sébastien Olivier François Éric Stéphane; Martin Bernard Dubois Thomas Robert Richard Petit Durand Leroy Moreau "
          "Simon Laurent Lefebvre Michel Garcia David Bertrand Roux Vincent Fournier Morel Girard André Lefèvre Mercier Dupont "
          "Lambert Bonnet François Legrand Garnier Faure Rousseau Blanc Guérin Muller Henry Roussel Perrin Morin Mathieu "
          "Clément Gauthier Dumont Fontaine Chevalier Robin",
    "nl": "Sanne Emma Julia Lotte Sophie Fleur Anouk Lisa Eva Iris Femke Noor Marieke Ingrid Esther Maaike Saskia Ilse; Daan Sem "
          "Lucas Levi Bram Jesse Thijs Ruben Lars Tim Jan Pieter Henk Kees Willem Johan Bas Joost Maarten Sander; de Jong|Jansen|"
          "de Vries|van den Berg|van Dijk|Bakker|Janssen|Visser|Smit|Meijer|de Boer|Mulder|de Groot|Bos|Vos|Peters|Hendriks|"
          "van Leeuwen|Dekker|Brouwer|de Wit|Dijkstra|Smits|de Graaf|van der Meer|van der Linden|Kok|Jacobs|de Haan|Vermeulen|"
          "van den Heuvel|van der Veen|van den Broek|de Bruijn|van der Heijden|Schouten|van Beek|Willems|van Vliet|van de Ven|"
          "Hoekstra|Maas|Verhoeven|Koster|van Dam|van der Wal|Prins|Blom|Huisman",
    "it": "Giulia Francesca Chiara Sara Martina Alessandra Valentina Elena; Marco Luca Giuseppe Alessandro Andrea Matteo "
          "Francesco Davide; Rossi Russo Ferrari Esposito Bianchi Romano Colombo Ricci Marino Greco Bruno Gallo Conti Costa",
    "us": "Mary Patricia Jennifer Linda Elizabeth Barbara Susan Jessica Sarah Karen Nancy Lisa Betty Margaret Sandra Ashley "
          "Kimberly Emily Donna Michelle; James John Robert Michael William David Richard Joseph Thomas Charles Christopher "
          "Daniel Matthew Anthony Mark Donald Steven Paul Andrew Joshua; Smith Johnson Williams Brown Jones Garcia Miller Davis "
          "Rodriguez Martinez Hernandez Lopez Gonzalez Wilson Anderson Thomas Taylor Moore Jackson Martin Lee Perez Thompson "
          "White Harris Sanchez Clark Ramirez Lewis Robinson Walker Young Allen King Wright Scott Torres Nguyen Hill Flores "
          "Green Adams Nelson Baker Hall Rivera Campbell Mitchell Carter Roberts O'Brien",
}.items()}
NAMES["pl"] = tuple(W(part.strip()) for part in (
    "Anna Maria Katarzyna Małgorzata Agnieszka Barbara Ewa Krystyna Magdalena Elżbieta Joanna Aleksandra Zofia Monika;"
    "Piotr Krzysztof Andrzej Tomasz Paweł Jan Michał Marcin Jakub Adam Łukasz Grzegorz Mateusz Wojciech;"
    "Nowak Kowalski Wiśniewski Wójcik Kowalczyk Kamiński Lewandowski Zieliński Szymański Woźniak Dąbrowski Kozłowski "
    "Jankowski Mazur Kwiatkowski Krawczyk Piotrowski Grabowski Nowakowski Pawłowski Michalski Nowicki Adamczyk Dudek").split(";"))
NAMES["sv"] = tuple(W(part.strip()) for part in (
    "Anna Eva Maria Karin Sara Kristina Lena Emma Elin Ingrid Astrid Linnea Maja Sofia;"
    "Lars Karl Anders Johan Per Erik Nils Lennart Mikael Jan Oskar Gustav Axel Björn;"
    "Andersson Johansson Karlsson Nilsson Eriksson Larsson Olsson Persson Svensson Gustafsson Pettersson Jonsson Jansson "
    "Hansson Bengtsson Lindberg Lindqvist Berglund Magnusson Lindström Sandberg Holm Nyström Åberg").split(";"))
NAMES["mx"], NAMES["br"] = NAMES["es"], NAMES["pt"]
# Cities: "name postal-code-prefix area-code" (the area code without the trunk prefix).
CITIES = {lang: [tuple(c.rsplit(" ", 2)) for c in W(spec, "|")] for lang, spec in {
    "de": "Berlin 10 30|Hamburg 20 40|München 80 89|Köln 50 221|Frankfurt am Main 60 69|Stuttgart 70 711|Düsseldorf 40 211|"
          "Leipzig 04 341|Dortmund 44 231|Bremen 28 421|Dresden 01 351|Hannover 30 511|Nürnberg 90 911",
    "es": "Madrid 28 91|Barcelona 08 93|Valencia 46 96|Sevilla 41 95|Zaragoza 50 976|Málaga 29 952|Bilbao 48 94|Murcia 30 968|"
          "Palma 07 971|Valladolid 47 983|Granada 18 958",
    "mx": "Ciudad de México 0 55|Guadalajara 44 33|Monterrey 64 81",
    "br": "São Paulo 0 11|Rio de Janeiro 2 21|Belo Horizonte 3 31|Curitiba 8 41|Porto Alegre 9 51",
    "fr": "Paris 75 1|Lyon 69 4|Marseille 13 4|Toulouse 31 5|Nice 06 4|Nantes 44 2|Strasbourg 67 3|Bordeaux 33 5|Lille 59 3|"
          "Rennes 35 2|Versailles 78 1",
    "nl": "Amsterdam 10 20|Rotterdam 30 10|Den Haag 25 70|Utrecht 35 30|Eindhoven 56 40|Groningen 97 50|Tilburg 50 13|"
          "Breda 48 76|Nijmegen 65 24",
    "us": "New York 100 212|Los Angeles 900 213|Chicago 606 312|Houston 770 713|Phoenix 850 602|Philadelphia 191 215|"
          "San Diego 921 619|Dallas 752 214|Seattle 981 206|Denver 802 303|Boston 021 617|Atlanta 303 404|Miami 331 305",
}.items()}
CITIES.update({lang: [tuple(c.rsplit(" ", 2)) for c in W(spec, "|")] for lang, spec in {
    "it": "Roma 00 06|Milano 20 02|Napoli 80 081|Torino 10 011|Palermo 90 091|Genova 16 010|Bologna 40 051|Firenze 50 055|"
          "Bari 70 080|Verona 37 045",
    "pl": "Warszawa 0 22|Kraków 3 12|Łódź 9 42|Wrocław 5 71|Poznań 6 61|Gdańsk 8 58|Szczecin 7 91|Lublin 2 81",
    "sv": "Stockholm 1 8|Göteborg 4 31|Malmö 2 40|Uppsala 7 18|Västerås 7 21|Örebro 7 19|Linköping 5 13|Umeå 9 90",
}.items()})
STATES = dict(zip([c[0] for c in CITIES["us"]], W("NY CA IL TX AZ PA CA TX WA CO MA GA FL")))
STREETS = {lang: W(spec, "|") for lang, spec in {
    "de": "Haupt|Bahnhof|Schul|Garten|Dorf|Berg|Kirch|Wald|Linden|Mühlen|Birken|Eichen|Rosen|Goethe|Schiller|Mozart|Kant",
    "es": "Mayor|Real|del Sol|de Alcalá|de la Paz|San Francisco|Santa Ana|de Goya|Gran Vía|de Serrano|de Cervantes|Nueva|"
          "del Carmen|de la Iglesia|de la Constitución",
    "mx": "Insurgentes Sur|Reforma|Juárez|Hidalgo|Morelos|Revolución|Universidad|Patriotismo",
    "br": "Augusta|das Flores|XV de Novembro|Sete de Setembro|Paulista|Brasil|São João|da Consolação",
    "fr": "de la République|Victor Hugo|Jean Jaurès|de la Gare|du Moulin|des Lilas|Pasteur|Gambetta|de Paris|"
          "du Général de Gaulle|des Écoles|Voltaire|de la Liberté|Émile Zola",
    "nl": "Kerk|Dorps|Molen|School|Stations|Wilhelmina|Juliana|Beatrix|Oranje|Prins Hendrik|Kastanje|Eiken|Beuken|Keizers",
    "us": "Oak|Maple|Cedar|Pine|Elm|Washington|Lake|Hill|Park|Main|2nd|3rd|Sunset|Highland|Lincoln",
}.items()}
STREETS.update({lang: W(spec, "|") for lang, spec in {
    "it": "Roma|Garibaldi|Mazzini|Cavour|Dante|Verdi|Marconi|XX Settembre|della Repubblica|dei Mille|Matteotti",
    "pl": "Długa|Krótka|Polna|Leśna|Słoneczna|Mickiewicza|Kościuszki|Piłsudskiego|Ogrodowa|Lipowa|Kwiatowa",
    "sv": "Stor|Kyrko|Skol|Drottning|Kungs|Sveav|Järnvägs|Ny|Ring|Björk|Ek",
}.items()})
MX_COLONIAS = W("Del Valle|Roma Norte|Condesa|Narvarte|Polanco|Centro|Providencia|Americana", "|")
DOMAINS = {k: W(v) for k, v in {
    "de": "gmx.de web.de t-online.de gmail.com posteo.de outlook.de", "es": "gmail.com hotmail.es yahoo.es outlook.es telefonica.net",
    "mx": "gmail.com hotmail.com yahoo.com.mx outlook.com prodigy.net.mx", "br": "gmail.com hotmail.com uol.com.br bol.com.br",
    "fr": "orange.fr free.fr laposte.net gmail.com sfr.fr wanadoo.fr", "nl": "ziggo.nl kpnmail.nl gmail.com hotmail.nl xs4all.nl",
    "it": "libero.it gmail.com virgilio.it", "pl": "wp.pl onet.pl gmail.com interia.pl o2.pl",
    "sv": "telia.com gmail.com hotmail.se outlook.com bredband.net", "us": "gmail.com yahoo.com outlook.com aol.com icloud.com comcast.net"}.items()}
BRANDS = W("Nordlicht Sol Atlas Delta Horizonte Lumière Polaris Vega Iberia Orion Tramontana Kuma")
SECTORS = {k: W(v) for k, v in {
    "de": "Logistik Bau Consulting Software Elektrotechnik Immobilien Maschinenbau Handel", "mx": "Comercializadora Grupo",
    "es": "Distribuciones Construcciones Consultores Inmobiliaria Alimentación Textiles Transportes",
    "br": "Comércio Distribuidora Importadora Confecções", "fr": "Transports Bâtiment Conseil Immobilier Assurances Garage",
    "nl": "Bouw Installatietechniek Advies Transport Vastgoed", "us": "Holdings Logistics Consulting Software Capital Foods"}.items()}
LEGAL = {k: W(v, "|") for k, v in {
    "de": "GmbH|AG|GmbH & Co. KG|KG|e.K.", "es": "S.L.|S.A.|S.L.U.", "mx": "S.A. de C.V.|S. de R.L.", "br": "Ltda.|S.A.|ME",
    "fr": "SARL|SAS|SA|EURL", "nl": "B.V.|N.V.|V.O.F.", "us": "Inc.|LLC|Corp.",
    "it": "S.r.l.|S.p.A.|S.n.c.|e Figli S.r.l.", "pl": "Sp. z o.o.|S.A.|Sp.k.", "sv": "AB|HB|& Söner AB"}.items()}
DNI_LETTERS = "TRWAGMYFPDXBNJZSQVHLCKE"
IBAN_LEN = {"DE": 22, "ES": 24, "FR": 27, "NL": 18, "IT": 27, "GB": 22}
RV_AREAS = W("02 03 04 08 09 10 11 12 13 14 15 16 17 18 19 20 21 23 24 25 26 28 29 38 39 40 42 43 44 45 46 47 48 49 50 51 "
             "52 53 54 55 56 57 58 59 60 61 62 63 64 65 66 67 68 69 70 71 72 73 74 75 76 77 78 79 80 81 82 89")
V6_PREFIXES = W("2a02:8108 2001:16b8 2a01:598 2003:e2 2600:1700 2806:2f0 2a01:cb00 2001:1c00 2a0d:5600")
USER_AGENTS = ["Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36",
               "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148",
               "Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0"]
MERCHANTS = W("Starbucks|Amazon Marketplace|Shell Oil 5731|Whole Foods Market|Uber Trip|Netflix.com|Delta Air Lines|"
              "Walgreens #1234|Target T-0875|Chipotle 2291|Spotify USA|Home Depot #6620|Lyft Ride|Apple.com/bill", "|")


CF_ODD = dict(zip("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ",
                  (1, 0, 5, 7, 9, 13, 15, 17, 19, 21) + (1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 2, 4, 18, 20, 11, 3, 6, 8, 12, 14,
                                                          16, 10, 22, 25, 24, 23)))


def cf_check(body):
    """The check letter of an Italian fiscal code's first fifteen characters."""
    return chr(65 + sum(CF_ODD[c] if i % 2 == 0 else ord(c) - 65 if c.isalpha() else int(c)
                        for i, c in enumerate(body)) % 26)


def luhn_digit(payload):
    """The digit that completes payload so that it passes the Luhn check."""
    s = 0
    for i, ch in enumerate(reversed(payload)):
        x = int(ch) * (2 if i % 2 == 0 else 1)
        s += x - 9 if x > 9 else x
    return str(-s % 10)


def ascii_(s):
    for a, b in (("ä", "ae"), ("ö", "oe"), ("ü", "ue"), ("ß", "ss"), ("Ä", "Ae"), ("Ö", "Oe"), ("Ü", "Ue")):
        s = s.replace(a, b)
    return re.sub(r"[^a-z]", "", unicodedata.normalize("NFKD", s).encode("ascii", "ignore").decode().lower())


def groups(s, sizes):
    out, i = [], 0
    for n in sizes:
        out.append(s[i:i + n])
        i += n
    return " ".join(x for x in out if x)


class Gen:
    """Synthetic values from one seeded random source."""

    def __init__(self, seed):
        self.r = random.Random(seed)

    def digits(self, n, nonzero=False):
        s = "".join(str(self.r.randrange(10)) for _ in range(n))
        return str(self.r.randint(1, 9)) + s[1:] if nonzero else s

    def opt(self, p_null, v):
        return None if p_null and self.r.random() < p_null else v

    def day(self, lo, hi=REF):
        return lo + dt.timedelta(days=self.r.randint(0, (hi - lo).days))

    def ts(self, fmt="%Y-%m-%d %H:%M:%S", lo=EPOCH):
        span = int((dt.datetime(REF.year, REF.month, REF.day) - lo).total_seconds())
        return (lo + dt.timedelta(seconds=self.r.randrange(span))).strftime(fmt)

    def dob(self, lo=18, hi=90):
        # At least lo*365.25+1 days and at most (hi+1)*365.25-2 days old: an age of lo to hi.
        return REF - dt.timedelta(days=self.r.randint(int(lo * 365.25) + 1, int((hi + 1) * 365.25) - 2))

    def name(self, lang):
        r, sex = self.r, self.r.choice("FM")
        female, male, last = NAMES[lang]
        surname = r.choice(last) + (" " + r.choice(last) if lang in ("es", "mx") else "")
        return r.choice(male if sex == "M" else female), surname, sex

    def fullname(self, lang):
        return "{} {}".format(*self.name(lang))

    def person(self, lang, ages=(18, 90)):
        first, last, sex = self.name(lang)
        city = self.r.choice(CITIES[lang])
        p = dict(first=first, last=last, full=f"{first} {last}", sex=sex, dob=self.dob(*ages), city=city[0], lang=lang,
                 zip=self.postcode(lang, city), street=self.street(lang), phone=self.phone(lang, city),
                 email=self.email(first, last, lang))
        return dict(p, line=f"{p['street']}, {p['zip']} {p['city']}")

    def email(self, first, last, lang):
        r = self.r
        f, l = ascii_(first), ascii_(last.split()[0] if lang in ("es", "mx") else last)
        local = r.choice((f"{f}.{l}", f"{f[0]}{l}", f"{f}{l}{r.randint(1, 99)}", f"{f}_{l}", f"{l}.{f}",
                          f"{f}{r.randint(1950, 2005)}", f"{f}.{l}{r.randint(1, 9)}"))
        return f"{local}@{r.choice(DOMAINS[lang])}"

    def postcode(self, lang, city):
        r, pre = self.r, city[1]
        if lang == "nl":
            return f"{pre}{self.digits(2)} {r.choice('ABCEGHJKLMNPRTVWXZ')}{r.choice('ABCDEFGHJKLMNPRTVWXZ')}"
        if lang == "us":
            return pre + self.digits(2) + (f"-{self.digits(4)}" if r.random() < .25 else "")
        if lang == "pl":
            return f"{pre}{self.digits(1)}-{self.digits(3)}"
        if lang == "sv":
            return f"{pre}{self.digits(2)} {self.digits(2)}"
        return f"{pre}{self.digits(4)}-{self.digits(3)}" if lang == "br" else pre + self.digits(5 - len(pre))

    def street(self, lang):
        r = self.r
        n, s = r.randint(1, 160), r.choice(STREETS[lang])
        if lang == "de":
            return f"{s}{r.choice(('straße', 'weg', 'allee', 'gasse', 'ring', 'str.'))} {n}{r.choice(('',) * 8 + ('a', 'b'))}"
        if lang == "es":
            door = f", {r.randint(1, 8)}º {r.choice(('A', 'B', 'C', 'izda.', 'dcha.'))}" if r.random() < .5 else ""
            return f"{r.choice(('Calle', 'C/', 'Avenida', 'Avda.', 'Paseo', 'Plaza'))} {s}, {n}{door}"
        if lang == "mx":
            return f"{r.choice(('Av.', 'Calle', 'Calz.'))} {s} {n * 9}, Col. {r.choice(MX_COLONIAS)}"
        if lang == "br":
            return f"{r.choice(('Rua', 'Av.', 'Travessa'))} {s}, {n * 7}" + (f", apto {r.randint(11, 154)}" if r.random() < .4 else "")
        if lang == "fr":
            kind = r.choice(("rue", "rue", "avenue", "boulevard", "place", "impasse", "chemin", "allée"))
            return f"{n}{r.choice(('',) * 6 + (' bis', ' ter'))} {kind} {s}"
        if lang == "nl":
            kind = r.choice(("straat", "weg", "laan", "plein", "gracht", "singel"))
            return f"{s}{kind} {n}{r.choice(('',) * 6 + ('a', 'b', '-1', '-hs'))}"
        if lang == "it":
            return f"{r.choice(('Via', 'Via', 'Viale', 'Corso', 'Piazza'))} {s}, {n}{r.choice(('',) * 6 + ('/A', '/B'))}"
        if lang == "pl":
            return f"{r.choice(('ul.', 'ul.', 'al.', 'os.'))} {s} {n}" + (f"/{r.randint(1, 60)}" if r.random() < .5 else "")
        if lang == "sv":
            return f"{s}{r.choice(('gatan', 'gatan', 'vägen', 'gränd'))} {n}{r.choice(('',) * 6 + ('A', 'B'))}"
        return f"{n * 13 + r.randint(0, 12)} {s} {r.choice(('St', 'Ave', 'Rd', 'Blvd', 'Dr', 'Ln', 'Ct', 'Way'))}"

    def phone(self, lang, city=None):
        """A phone number in one of the country's national or E.164 forms."""
        r, d = self.r, self.digits
        a = (city or r.choice(CITIES[lang]))[2]
        mobile = r.random() < .45
        if lang == "de":
            if mobile:
                a = r.choice(("151", "160", "170", "171", "176", "179"))
            n = d(7 + (r.random() < .5) if mobile else 10 - len(a), True)
            return r.choice((f"(0{a}) {n}", f"0{a} {n}", f"0{a}/{n}", f"0{a}-{n}", f"+49 {a} {n}", f"+49{a}{n}"))
        if lang == "es":
            n = r.choice("67") + d(8) if mobile else a + d(9 - len(a), True)
            return r.choice((f"{n[:3]} {n[3:5]} {n[5:7]} {n[7:]}", f"{n[:3]} {n[3:6]} {n[6:]}", f"+34 {n[:3]} {n[3:6]} {n[6:]}",
                             f"+34{n}", n))
        if lang == "mx":
            n = a + d(8, True)
            return r.choice((f"{n[:2]} {n[2:6]} {n[6:]}", f"+52 {n[:2]} {n[2:6]} {n[6:]}", f"+52{n}"))
        if lang == "br":
            n = "9" + d(8)
            return r.choice((f"({a}) {n[:5]}-{n[5:]}", f"+55 {a} {n[:5]}-{n[5:]}", f"{a} {n[:5]}-{n[5:]}", f"+55{a}{n}"))
        if lang == "fr":
            n = (r.choice("67") if mobile else a) + d(8)
            pairs = groups("0" + n, (2, 2, 2, 2, 2))
            return r.choice((pairs, pairs, "0" + n, f"+33 {n[0]} {groups(n[1:], (2, 2, 2, 2))}", f"+33{n}", pairs.replace(" ", ".")))
        if lang == "nl":
            if mobile:
                n = d(8, True)
                return r.choice((f"06-{n}", f"06 {n[:4]} {n[4:]}", f"+31 6 {n}", f"+316{n}"))
            n = d(9 - len(a), True)
            return r.choice((f"0{a}-{n}", f"0{a} {n[:3]} {n[3:]}", f"+31 {a} {n}"))
        if lang == "it":
            n = "3" + d(9) if mobile else a + d(9 - len(a), True)
            return r.choice((f"{n[:3]} {n[3:6]} {n[6:]}", f"+39 {n[:3]} {n[3:6]} {n[6:]}", f"+39{n}", n))
        if lang == "pl":
            n = r.choice("5678") + d(8) if mobile else a + d(9 - len(a), True)
            return r.choice((f"{n[:3]} {n[3:6]} {n[6:]}", f"+48 {n[:3]} {n[3:6]} {n[6:]}", f"+48{n}"))
        if lang == "sv":
            n = "7" + r.choice("0236") + d(7) if mobile else a + d(8 - len(a), True)
            return r.choice((f"0{n[:2]}-{n[2:5]} {n[5:7]} {n[7:]}", f"+46 {n[:2]} {n[2:5]} {n[5:7]} {n[7:]}", f"+46{n}"))
        n = a + str(r.randint(2, 9)) + d(6)
        return r.choice((f"({n[:3]}) {n[3:6]}-{n[6:]}", f"{n[:3]}-{n[3:6]}-{n[6:]}", f"{n[:3]}.{n[3:6]}.{n[6:]}",
                         f"+1 {n[:3]} {n[3:6]} {n[6:]}", f"+1{n}"))

    def company(self, lang):
        r = self.r
        base = r.choice(NAMES[lang][2]).split()[-1] if r.random() < .5 else r.choice(BRANDS)
        name = f"{r.choice(SECTORS[lang])} {base}" if lang in ("es", "mx", "br", "fr") else f"{base} {r.choice(SECTORS[lang])}"
        return f"{name} {r.choice(LEGAL[lang])}"

    # Values with check digits.
    def card(self, spaced=False):
        r, x = self.r, self.r.random()
        if x < .55:
            p = "4" + self.digits(14)
        elif x < .9:
            p = str(r.randint(51, 55)) if r.random() < .8 else str(r.randint(2221, 2720))
            p += self.digits(15 - len(p))
        else:
            p = r.choice(("34", "37")) + self.digits(12)
        n = p + luhn_digit(p)
        return groups(n, (4, 6, 5) if len(n) == 15 else (4, 4, 4, 4)) if spaced else n

    def iban(self, cc, spaced=False):
        r, d = self.r, self.digits
        bban = {"DE": lambda: d(8, True) + d(10), "ES": lambda: d(20), "FR": lambda: d(23),
                "NL": lambda: r.choice(("ABNA", "INGB", "RABO", "SNSB", "TRIO", "ASNB", "KNAB", "BUNQ")) + d(10),
                "IT": lambda: r.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ") + d(22),
                "GB": lambda: r.choice(("NWBK", "BARC", "LOYD", "HBUK", "MIDL")) + d(14)}[cc]()
        n = int("".join(str(int(ch, 36)) for ch in bban + cc + "00"))
        s = f"{cc}{98 - n % 97:02d}{bban}"
        return groups(s, [4] * 8) if spaced else s

    def dni(self):
        r = self.r
        if r.random() < .15:  # NIE: X, Y, Z stand for 0, 1, 2
            k, n = r.randrange(3), r.randint(0, 9_999_999)
            return f"{'XYZ'[k]}{n:07d}{DNI_LETTERS[(k * 10_000_000 + n) % 23]}"
        n = r.randint(1_000_000, 99_999_999)
        return f"{n:08d}{'-' if r.random() < .1 else ''}{DNI_LETTERS[n % 23]}"

    def bsn(self):
        while True:
            d = self.digits(8, True)
            c = sum((9 - i) * int(x) for i, x in enumerate(d)) % 11
            if c < 10:
                return d + str(c)

    def cpf(self, formatted=True):
        d = [self.r.randrange(10) for _ in range(9)]
        d[0] = (d[1] + 1) % 10 if len(set(d)) == 1 else d[0]
        for k in (10, 11):
            d.append(sum(x * (k - i) for i, x in enumerate(d)) * 10 % 11 % 10)
        s = "".join(map(str, d))
        return f"{s[:3]}.{s[3:6]}.{s[6:9]}-{s[9:]}" if formatted else s

    def personnummer(self, dob, sex):
        p = dob.strftime("%y%m%d") + f"{self.r.randint(0, 99):02d}" + self.r.choice("13579" if sex == "M" else "02468")
        return f"{p[:6]}-{p[6:]}{luhn_digit(p)}"

    def nir(self, sex, dob, spaced):
        dep = self.r.choice([x for x in range(1, 96) if x != 20])
        body = f"{1 if sex == 'M' else 2}{dob:%y%m}{dep:02d}{self.r.randint(1, 990):03d}{self.r.randint(1, 999):03d}"
        s = body + f"{97 - int(body) % 97:02d}"
        return groups(s, (1, 2, 2, 2, 3, 3, 2)) if spaced else s

    def ssn(self, dashes=True):
        a = self.r.choice([x for x in range(1, 900) if x != 666])
        s = f"{a:03d}{self.r.randint(1, 99):02d}{self.r.randint(1, 9999):04d}"
        return f"{s[:3]}-{s[3:5]}-{s[5:]}" if dashes else s

    def steuer_id(self):
        ds = [0]
        while not ds[0]:  # ten digits, one of them twice, not starting with 0
            ds = self.r.sample(range(10), 9)
            ds.insert(self.r.randrange(10), self.r.choice(ds))
        p = 10
        for x in ds:  # ISO 7064 MOD 11,10
            p = 2 * ((x + p) % 10 or 10) % 11
        return "".join(map(str, ds)) + str((11 - p) % 10)

    def rvnr(self, p):
        area, letter = self.r.choice(RV_AREAS), ascii_(p["last"])[0].upper()
        serial = self.r.randint(0, 49) + (50 if p["sex"] == "F" else 0)
        digits = f"{area}{p['dob']:%d%m%y}{ord(letter) - 64:02d}{serial:02d}"
        check = sum(sum(divmod(int(x) * w, 10)) for x, w in zip(digits, (2, 1, 2, 5, 7, 1, 2, 1, 2, 1, 2, 1))) % 10
        return f"{area}{p['dob']:%d%m%y}{letter}{serial:02d}{check}"

    def codice_fiscale(self, p):
        """An Italian fiscal code: consonants of the surname and name, the
        year, the month's letter, the day (plus 40 for women), a place code
        and the check letter."""
        def three(word):
            w = ascii_(word).upper()
            cons = [c for c in w if c not in "AEIOU"]
            return "".join((cons + [c for c in w if c in "AEIOU"] + ["X"] * 3)[:3])
        b = p["dob"]
        body = (three(p["last"]) + three(p["first"]) + f"{b:%y}" + "ABCDEHLMPRST"[b.month - 1] +
                f"{b.day + (40 if p['sex'] == 'F' else 0):02d}" + self.r.choice("ABCDEFGHILM") + self.digits(3))
        return body + cf_check(body)

    def pesel(self, dob, sex):
        month = dob.month + {18: 80, 19: 0, 20: 20}[dob.year // 100]
        body = f"{dob:%y}{month:02d}{dob:%d}{self.digits(3)}{self.r.choice('13579' if sex == 'M' else '02468')}"
        return body + str(-sum(int(x) * w for x, w in zip(body, (1, 3, 7, 9, 1, 3, 7, 9, 1, 3))) % 10)

    def nino(self):
        r = self.r
        while True:
            pre = r.choice("ABCEGHJKLMNOPRSTWXYZ") + r.choice("ABCEGHJKLMNPRSTWXYZ")
            if pre not in ("BG", "GB", "KN", "NK", "NT", "TN", "ZZ"):
                n = f"{pre}{self.digits(6)}{r.choice('ABCD')}"
                return groups(n, (2, 2, 2, 2, 1)) if r.random() < .3 else n

    def nhs(self):
        while True:
            d = self.digits(9, True)
            c = 11 - sum(int(x) * (10 - i) for i, x in enumerate(d)) % 11
            if c != 10:
                n = d + str(c % 11)
                return groups(n, (3, 3, 4)) if self.r.random() < .5 else n

    def fodselsnummer(self, dob):
        while True:
            d = f"{dob:%d%m%y}{self.digits(3)}"
            k1 = 11 - sum(int(x) * w for x, w in zip(d, (3, 7, 6, 1, 8, 9, 4, 5, 2))) % 11
            k1 = 0 if k1 == 11 else k1
            d += str(k1)
            k2 = 11 - sum(int(x) * w for x, w in zip(d, (5, 4, 3, 2, 7, 6, 5, 4, 3, 2))) % 11
            k2 = 0 if k2 == 11 else k2
            if k1 < 10 and k2 < 10:
                return d + str(k2)

    def partita_iva(self):
        """An Italian VAT number of a firm (not personal): 11 digits, Luhn."""
        p = self.digits(7, True) + self.r.choice(("001", "015", "037", "058", "096"))
        return p + luhn_digit(p)

    # Decoys.
    def ean13(self, prefix):
        p = prefix + self.digits(12 - len(prefix))
        return p + str(-sum(int(c) * (3 if i % 2 else 1) for i, c in enumerate(p)) % 10)

    def long_id(self):
        return self.digits(self.r.randint(13, 19), True)

    def version(self):
        r, k = self.r, self.r.random()
        if k < .4:
            return f"{r.randint(0, 12)}.{r.randint(0, 20)}.{r.randint(0, 40)}"
        if k < .7:
            return f"10.0.{r.choice((17763, 19041, 19044, 19045, 22621, 22631))}.{r.randint(1, 4000)}"
        return f"{r.randint(1, 9)}.{r.randint(0, 9)}.{r.randint(0, 30)}.{r.randint(0, 200)}"

    def uuid(self):
        return str(uuid.UUID(int=self.r.getrandbits(128), version=4))

    def digest(self, algo="sha256"):
        return hashlib.new(algo, self.r.getrandbits(64).to_bytes(8, "big")).hexdigest()

    def ip(self, v6=0.0, private=0.0):
        r = self.r
        if r.random() < v6:
            iid = r.getrandbits(64) if r.random() < .6 else r.randint(1, 255)
            net = int(ipaddress.IPv6Address(r.choice(V6_PREFIXES) + "::"))
            return str(ipaddress.IPv6Address(net | r.getrandbits(32) << 64 | iid))
        if r.random() < private:
            return r.choice((f"10.{r.randint(0, 255)}.", "192.168.")) + f"{r.randint(0, 255)}.{r.randint(1, 254)}"
        a = r.choice([x for x in range(1, 224) if x not in (10, 100, 127, 169, 172, 192)])
        return f"{a}.{r.randint(0, 255)}.{r.randint(0, 255)}.{r.randint(1, 254)}"

    def bic(self, cc):
        r = self.r
        bank = "".join(r.choice("ABCDEFGHIJKLMNOPRSTUVWZ") for _ in range(4))
        return bank + cc + r.choice(("2X", "FF", "MM", "22")) + r.choice(("", "XXX"))

    # Free text.
    def text(self, plain, pii=None, rate=0.0, lang="us", null=0.0, k=(1, 2)):
        """One to k sentences of plain, and in a share rate of the values
        one sentence of pii, its {email}, {phone} and {card} filled in."""
        r = self.r
        if r.random() < null:
            return None
        parts = r.sample(plain, r.randint(*k))
        if pii and r.random() < rate:
            parts.insert(r.randint(0, len(parts)), r.choice(pii))
        lang = r.choice(lang) if isinstance(lang, tuple) else lang
        out = []
        for t in parts:
            vals = dict(n=r.randint(2, 48000), amt=f"{r.uniform(5, 900):.2f}", m=r.choice(MERCHANTS),
                        d=self.day(dt.date(2024, 1, 1), dt.date(2024, 12, 31)).strftime("%d.%m.%Y" if lang == "de" else "%d/%m/%Y"))
            if "{email}" in t:
                vals["email"] = self.email(*self.name(lang)[:2], lang)
            if "{phone}" in t:
                vals["phone"] = self.phone(lang)
            if "{card}" in t:
                vals["card"] = self.card(spaced=r.random() < .5)
                TEXT_CARDS.append(vals["card"])
            out.append(t.format(**vals))
        return " ".join(out)


def table(g, con, db, name, n, cols, row=None):
    """Creates and fills a table; returns its rows. A column's value is a
    key of the row's context or a function of it, NULL in a share null."""
    con.execute(f"CREATE TABLE {name} ({', '.join(f'{c[0]} {c[1]}' for c in cols)})")
    data = []
    for i in range(1, n + 1):
        ctx = dict(row(i) if row else {}, i=i)
        data.append([g.opt(c[6], c[4](ctx) if callable(c[4]) else ctx[c[4]]) for c in cols])
    con.executemany(f"INSERT INTO {name} VALUES ({', '.join('?' * len(cols))})", data)
    SPEC.extend(Col(db, name, c[0], c[1], c[2], bool(c[3]), c[5]) for c in cols)
    return data


def K(name):
    """A key numbered from 1."""
    return name, "INTEGER PRIMARY KEY", NONE, 0, "i", None, 0


def N(name, fn, typ="TEXT", extra=None, null=0):
    """A column that holds no personal data; extra "text" marks free text
    with no personal value in it, "long_id" a Luhn decoy."""
    return name, typ, NONE, 0, fn, extra, null


def P(name, cat, fn, hidden=0, extra=None, typ="TEXT", null=0):
    """A column of personal data, hidden when its name does not say which;
    extra is a national id's schemes or a date of birth's format."""
    return name, typ, cat, hidden, fn, extra, null


def personal_de(con, db):
    g = Gen(1001)
    r = g.r
    emps = [g.person("de", (18, 66)) for _ in range(800)]
    for p in emps:
        p["start"] = g.day(max(dt.date(1995, 1, 1), p["dob"] + dt.timedelta(days=6575)))

    plain = ["Probezeit bestanden.", "Teilzeit ab {d} vereinbart.", "Elternzeit beantragt.", "Dienstwagen zugeteilt.",
             "Unterweisung Arbeitssicherheit absolviert.", "Zwei Tage Homeoffice pro Woche.", "Zwischenzeugnis angefordert.",
             "Fortbildung genehmigt, Kosten {amt} EUR.", "Wechsel in Projekt Nr. {n} geplant.", "Sonderurlaub genehmigt."]
    pii = ["Privat erreichbar unter {phone}.", "Bitte Lohnunterlagen an {email} schicken.",
           "Während der Elternzeit erreichbar: {phone}", "Neue private E-Mail-Adresse: {email}"]
    table(g, con, db, "mitarbeiter", 800, [
        N("personalnummer", lambda c: 10000 + c["i"], "INTEGER PRIMARY KEY"),
        N("anrede", lambda c: "Frau" if c["sex"] == "F" else "Herr"), P("vorname", NAME, "first"), P("nachname", NAME, "last"),
        P("geburtsdatum", DOB, lambda c: f"{c['dob']:%d.%m.%Y}", extra="%d.%m.%Y"),
        N("geburtsort", lambda c: r.choice(CITIES["de"])[0], null=.2),
        P("strasse", ADDR, "street"), P("plz", ADDR, "zip"), N("ort", "city"),
        P("telefonnummer", PHONE, "phone", null=.1), P("kontakt", EMAIL, "email", 1, null=.15),
        P("steuer_id", NID, lambda c: g.steuer_id(), extra=("steuer_id",)), P("sv_nummer", NID, g.rvnr, extra=("rvnr",)),
        N("eintrittsdatum", lambda c: f"{c['start']:%d.%m.%Y}"),
        N("austrittsdatum", lambda c: f"{g.day(c['start']):%d.%m.%Y}", null=.85),
        N("wochenstunden", lambda c: r.choice((40, 40, 39, 38.5, 30, 20)), "REAL"),
        N("entgeltgruppe", lambda c: f"E{r.randint(3, 15)}"),
        P("bankverbindung", IBAN, lambda c: g.iban("DE", spaced=True)),
        P("bemerkung", TEXT, lambda c: g.text(plain, pii, .06, "de"), null=.2),
    ], row=lambda i: emps[i - 1])

    def project(i):
        start = g.day(dt.date(2018, 1, 1))
        return {"start": start, "end": start + dt.timedelta(days=r.randint(30, 900))}

    table(g, con, db, "projekte", 400, [
        K("projekt_id"), N("projektnummer", lambda c: f"P-{c['start'].year}-{c['i']:04d}"),
        N("titel", lambda c: f"{r.choice(W('Einführung Migration Umbau Ausbau Wartung'))} "
                             f"{r.choice(W('ERP-System Lagerhalle Rechenzentrum Webshop Fuhrpark Intranet'))}"),
        N("kunde", lambda c: g.company("de")), P("projektleiter", NAME, lambda c: r.choice(emps)["full"], 1),
        N("beginn", lambda c: c["start"].isoformat()), N("ende", lambda c: c["end"].isoformat(), null=.4),
        N("budget", lambda c: round(r.uniform(5e3, 2e6), 2), "REAL"),
        N("status", lambda c: r.choice(W("geplant aktiv abgeschlossen pausiert"))),
        N("kostenstelle", lambda c: str(r.randint(10000, 99999))),
    ], row=project)
    table(g, con, db, "anmeldungen", 2000, [
        K("anmeldung_id"), N("personalnummer", lambda c: 10001 + r.randrange(len(emps)), "INTEGER"),
        N("zeitpunkt", lambda c: g.ts("%Y-%m-%dT%H:%M:%S", dt.datetime(2023, 1, 1))),
        P("quelle", IP, lambda c: g.ip(v6=.15, private=.5), 1), N("client_version", lambda c: g.version()),
        N("geraet", lambda c: r.choice(W("Notebook Desktop Terminal Smartphone Tablet"))),
        N("erfolgreich", lambda c: int(r.random() < .93), "INTEGER"), N("sitzung", lambda c: g.uuid()),
    ])
    letter = ["Mit großem Interesse habe ich Ihre Stellenanzeige gelesen.", "Meine Unterlagen finden Sie im Anhang.",
              "Hiermit bewerbe ich mich um die ausgeschriebene Stelle.", "Ein Eintritt ist zum {d} möglich.",
              "Ich verfüge über mehrjährige Berufserfahrung im Vertrieb.", "Ich freue mich auf ein persönliches Gespräch.",
              "Nach meinem Studium suche ich eine neue Herausforderung.", "Teamarbeit und Zuverlässigkeit sind mir wichtig."]
    letter_pii = ["Für Rückfragen erreichen Sie mich unter {phone}.", "Sie erreichen mich am besten per E-Mail: {email}",
                  "Über einen Anruf unter {phone} freue ich mich."]
    notes = ["Telefoninterview geführt, positiv.", "Absage versendet.", "Unterlagen unvollständig, Zeugnisse fehlen.",
             "Zweitgespräch mit Fachabteilung am {d}.", "Gehaltsvorstellung {n} EUR brutto im Jahr.", "Referenzen prüfen."]
    table(g, con, db, "bewerbungen", 450, [
        K("bewerbung_id"), P("name", NAME, lambda c: f"{c['last']}, {c['first']}"), P("email", EMAIL, "email"),
        P("telefon", PHONE, "phone", null=.25), P("anschrift", ADDR, "line"),
        P("geburtstag", DOB, lambda c: c["dob"].isoformat(), extra="%Y-%m-%d", null=.3),
        N("stelle", lambda c: r.choice(W("Sachbearbeiter/in Softwareentwickler/in Lagerist/in Buchhalter/in Vertriebsleiter/in"))),
        N("eingegangen_am", lambda c: g.ts(lo=dt.datetime(2023, 6, 1))),
        P("anschreiben", TEXT, lambda c: g.text(letter, letter_pii, .05, "de", k=(2, 4)), null=.05),
        N("notiz", lambda c: g.text(notes), extra="text", null=.5),
        N("status", lambda c: r.choice(W("eingegangen in_pruefung eingeladen abgesagt eingestellt"))),
    ], row=lambda i: g.person("de", (18, 64)))
    table(g, con, db, "notfallkontakte", 600, [
        K("id"), N("personalnummer", lambda c: 10001 + r.randrange(len(emps)), "INTEGER"),
        P("name", NAME, lambda c: g.fullname("de")),
        N("beziehung", lambda c: r.choice(W("Ehepartner Ehepartnerin Mutter Vater Schwester Bruder Lebensgefährte"))),
        P("wert", PHONE, lambda c: g.phone("de"), 1),
    ])


def tienda_es(con, db):
    g = Gen(2002)
    r = g.r
    clients = [g.person("es" if r.random() < .8 else "mx") for _ in range(1200)]
    table(g, con, db, "clientes", 1200, [
        K("id_cliente"), P("nombre", NAME, "first"), P("apellidos", NAME, "last"), P("correo", EMAIL, "email"),
        P("telefono", PHONE, "phone", null=.15),
        P("dni", NID, lambda c: g.dni() if c["lang"] == "es" else None, extra=("dni",), null=.1),
        P("fecha_nacimiento", DOB, lambda c: f"{c['dob']:%d/%m/%Y}", extra="%d/%m/%Y", null=.25),
        P("direccion", ADDR, "street"), P("codigo_postal", ADDR, "zip"),
        N("ciudad", "city"), N("pais", lambda c: c["lang"].upper()),
        N("usuario", lambda c: f"{ascii_(c['first'])[:5]}{ascii_(c['last'])[:3]}{r.randint(1, 99)}"),
        N("contrasena_hash", lambda c: "$2b$12$" + g.digest()[:53]),
        N("fecha_alta", lambda c: g.ts()), N("acepta_publicidad", lambda c: int(r.random() < .4), "INTEGER"),
    ], row=lambda i: clients[i - 1])
    kinds = [("Camiseta", "Textil"), ("Zapatillas", "Calzado"), ("Auriculares", "Electrónica"), ("Altavoz", "Electrónica"),
             ("Mochila", "Accesorios"), ("Cafetera", "Hogar"), ("Lámpara", "Hogar"), ("Reloj inteligente", "Electrónica")]
    descs = ["Envío en 24/48 horas.", "Garantía de 2 años.", "Material reciclado.", "Disponible en varias tallas.",
             "Incluye cable USB-C.", "Lavable a 30 grados.", "Edición limitada.", "Producto de comercio justo."]
    prods = table(g, con, db, "productos", 500, [
        K("id_producto"), N("sku", lambda c: f"{ascii_(c['kind'][0])[:3].upper()}-{r.choice(('AZ', 'NE', 'BL'))}-{c['i']:04d}"),
        N("ean", lambda c: g.ean13(r.choice(("84", "400", "590", "750")))),
        N("nombre", lambda c: f"{c['kind'][0]} {r.choice(W('Básico Pro Plus Eco Urban Sport Classic Max'))}"),
        N("descripcion", lambda c: g.text(descs, k=(1, 3)), extra="text", null=.1),
        N("marca", lambda c: g.company("es") if r.random() < .3 else r.choice(BRANDS)),
        N("categoria", lambda c: c["kind"][1]), N("precio", lambda c: round(r.uniform(4.95, 399), 2), "REAL"),
        N("moneda", lambda c: r.choice(("EUR", "EUR", "MXN"))), N("stock", lambda c: r.randint(0, 800), "INTEGER"),
        N("version_firmware", lambda c: g.version() if c["kind"][1] == "Electrónica" else None),
    ], row=lambda i: {"kind": r.choice(kinds)})
    plain = ["Dejar el paquete en portería.", "Entregar por la tarde, por favor.", "Es un regalo, no incluir la factura.",
             "El timbre no funciona.", "Por favor, embalaje discreto.", "Entregar a partir del {d}.", "Segundo intento de entrega."]
    pii = ["Si no estoy, llamar al {phone}.", "Enviar la factura a {email}, gracias.",
           "Avisar por WhatsApp al {phone} antes de llegar.", "Mi correo correcto es {email}."]
    orders = table(g, con, db, "pedidos", 2000, [
        K("id_pedido"), N("numero_pedido", lambda c: f"PED-{2021 + c['i'] % 4}-{c['i']:06d}"),
        N("id_cliente", lambda c: c["k"] + 1, "INTEGER"), N("fecha", lambda c: g.ts()),
        N("estado", lambda c: r.choice(W("pendiente pagado enviado entregado entregado cancelado devuelto"))),
        N("total", lambda c: round(r.uniform(9.9, 650), 2), "REAL"), N("unidades", lambda c: r.randint(1, 6), "INTEGER"),
        N("id_producto", lambda c: r.randint(1, len(prods)), "INTEGER"),
        P("destino", ADDR, lambda c: (clients[c["k"]] if r.random() < .85 else g.person(clients[c["k"]]["lang"]))["line"], 1),
        P("origen", IP, lambda c: g.ip(v6=.3), 1),
        P("comentario", TEXT, lambda c: g.text(plain, pii, .06, ("es", "es", "mx")), null=.6),
        N("referencia_pago", lambda c: g.long_id(), extra="long_id"),
        N("transportista", lambda c: r.choice(W("SEUR Correos MRW DHL Estafeta GLS"))),
    ], row=lambda i: {"k": r.randrange(len(clients))})
    table(g, con, db, "pagos", 1500, [
        K("id_pago"), N("id_pedido", "i", "INTEGER"), N("metodo", "m"),
        P("titular", NAME, lambda c: g.fullname("es") if c["m"] in ("tarjeta", "transferencia") else None, 1),
        P("tarjeta", CARD, lambda c: g.card(spaced=True) if c["m"] == "tarjeta" else None),
        P("iban", IBAN, lambda c: g.iban("ES", spaced=True) if c["m"] == "transferencia" else None),
        N("importe", lambda c: orders[c["i"] - 1][5], "REAL"), N("moneda", lambda c: "EUR"),
        N("autorizacion", lambda c: "".join(r.choice("0123456789ABCDEF") for _ in range(6))),
        N("fecha", lambda c: g.ts()), N("huella", lambda c: g.digest("sha1")),
    ], row=lambda i: {"m": r.choice(("tarjeta", "tarjeta", "tarjeta", "transferencia", "bizum", "paypal"))})
    table(g, con, db, "vendedores", 400, [
        K("id_vendedor"), N("razon_social", lambda c: g.company(c["lang"])), P("contacto", NAME, "full", 1),
        N("pais", lambda c: c["lang"].upper()), P("cpf", NID, lambda c: g.cpf() if c["lang"] == "br" else None, extra=("cpf",)),
        P("whatsapp", PHONE, "phone"), P("cuenta", IBAN, lambda c: g.iban("ES") if c["lang"] == "es" else None, 1),
        P("dato1", PHONE, lambda c: g.phone(c["lang"]), 1, null=.3),
        P("dato2", DOB, lambda c: f"{c['dob']:%d/%m/%Y}", 1, "%d/%m/%Y", null=.2),
        N("comision", lambda c: r.choice((5.0, 7.5, 10.0, 12.5, 15.0)), "REAL"),
        N("web", lambda c: f"https://www.{ascii_(c['last'].split()[0])}{r.randint(1, 99)}.com", null=.4),
        N("alta", lambda c: g.day(dt.date(2019, 1, 1)).isoformat()),
    ], row=lambda i: g.person(r.choice(("es", "es", "mx", "br")), (25, 75)))


def crm_fr_nl(con, db):
    g = Gen(3003)
    r = g.r
    table(g, con, db, "contacts", 900, [
        K("id_contact"), N("civilite", lambda c: "Mme" if c["sex"] == "F" else "M."), P("prenom", NAME, "first"),
        P("nom", NAME, lambda c: c["last"].upper() if r.random() < .3 else c["last"]),
        P("courriel", EMAIL, "email", null=.1), P("telephone", PHONE, "phone", null=.1),
        P("adresse", ADDR, "street"), P("code_postal", ADDR, "zip"), N("ville", "city"),
        P("date_naissance", DOB, lambda c: f"{c['dob']:%d/%m/%Y}", extra="%d/%m/%Y", null=.3),
        P("numero_securite_sociale", NID, lambda c: g.nir(c["sex"], c["dob"], r.random() < .5), extra=("nir",), null=.4),
        N("societe", lambda c: g.company("fr"), null=.5), P("ref", IBAN, lambda c: g.iban("FR"), 1, null=.35),
        N("cree_le", lambda c: g.ts()),
    ], row=lambda i: g.person("fr"))

    def relatie(i):
        p = g.person("nl")
        words = p["last"].split()
        return dict(p, tv=" ".join(w for w in words if w.islower()) or None, core=" ".join(w for w in words if not w.islower()))

    table(g, con, db, "relaties", 700, [
        K("relatie_id"), P("voornaam", NAME, "first"), P("tussenvoegsel", NAME, "tv"), P("achternaam", NAME, "core"),
        P("email", EMAIL, "email"), P("mobiel", PHONE, "phone", null=.1),
        P("adres", ADDR, "street"), P("postcode", ADDR, "zip"), N("woonplaats", "city"),
        P("geboortedatum", DOB, lambda c: f"{c['dob']:%d-%m-%Y}", extra="%d-%m-%Y"),
        P("bsn", NID, lambda c: g.bsn(), extra=("bsn",), null=.2),
        P("rekeningnummer", IBAN, lambda c: g.iban("NL", spaced=True), null=.1),
        N("polisnummer", lambda c: f"POL-NL-{r.randint(100000, 999999)}"),
        N("ingangsdatum", lambda c: f"{g.day(dt.date(2015, 1, 1)):%d-%m-%Y}"),
        N("premie", lambda c: round(r.uniform(8, 240), 2), "REAL"),
        N("klant_sinds", lambda c: g.day(dt.date(2005, 1, 1)).isoformat()),
    ], row=relatie)
    staff = [g.fullname(r.choice(("fr", "nl"))) for _ in range(25)]
    plain = ["Client intéressé par l'offre premium.", "Relance prévue la semaine prochaine.", "Sinistre déclaré, expert mandaté.",
             "A demandé un devis pour l'assurance habitation.", "Rendez-vous reporté au {d}.", "Polis verlengd zonder wijzigingen.",
             "Dossier complet, en attente de signature.", "Souhaite résilier son contrat actuel.",
             "Klant wil een offerte voor een autoverzekering."]
    pii = ["Rappeler au {phone} après 18h.", "Nouvelle adresse e-mail : {email}.", "Préfère être contacté au {phone}.",
           "Graag terugbellen op {phone}.", "Stuur de polis naar {email}."]
    table(g, con, db, "activites", 2000, [
        K("id_activite"), N("id_contact", lambda c: r.randint(1, 900), "INTEGER"),
        N("canal", lambda c: r.choice(W("appel email rendez-vous courrier visio"))), N("date_activite", lambda c: g.ts()),
        N("sujet", lambda c: r.choice(W("Devis Sinistre Résiliation Renouvellement Réclamation Information"))),
        P("commentaire", TEXT, lambda c: g.text(plain, pii, .05, ("fr", "fr", "nl")), null=.15),
        N("duree_minutes", lambda c: r.choice((5, 10, 15, 20, 30, 45, 60)), "INTEGER"),
        P("responsable", NAME, lambda c: r.choice(staff), 1),
    ])
    msgs = ["Je souhaite recevoir une documentation.", "Graag meer informatie over de reisverzekering.",
            "Quels sont vos tarifs pour une mutuelle familiale ?", "Kunnen jullie mij een offerte sturen?",
            "Merci de me recontacter.", "Ik wil mijn polis wijzigen.", "Je déménage le mois prochain."]
    table(g, con, db, "formulaires_web", 1000, [
        K("id_formulaire"), N("soumis_le", lambda c: g.ts("%Y-%m-%dT%H:%M:%SZ")), N("langue", lambda c: r.choice(("fr", "fr", "nl"))),
        P("source", IP, lambda c: g.ip(v6=.4), 1), N("navigateur", lambda c: r.choice(USER_AGENTS)),
        N("version_app", lambda c: g.version()), P("info", EMAIL, lambda c: g.email(*g.name("fr")[:2], "fr"), 1, null=.1),
        N("message", lambda c: g.text(msgs), extra="text", null=.2),
        N("consentement", lambda c: int(r.random() < .7), "INTEGER"), N("empreinte", lambda c: g.digest("sha1")),
    ])


def fintech_us(con, db):
    g = Gen(4004)
    r = g.r
    custs = [g.person("us") for _ in range(1000)]

    def holder(p):  # JOHN A SMITH
        return f"{p['first']} {r.choice('ABCDJKLMRST') + ' ' if r.random() < .5 else ''}{p['last']}".upper()

    table(g, con, db, "customers", 1000, [
        K("id"), P("first_name", NAME, "first"), P("last_name", NAME, "last"), P("ssn", NID, lambda c: g.ssn(), extra=("ssn",)),
        P("dob", DOB, lambda c: c["dob"].isoformat(), extra="%Y-%m-%d", typ="DATE"),
        P("email", EMAIL, "email"), P("phone", PHONE, "phone", null=.05), P("address_line1", ADDR, "street"),
        P("address_line2", ADDR, lambda c: f"{r.choice(('Apt', 'Suite', 'Unit', '#'))} {r.randint(1, 40)}{r.choice(('', 'A', 'B'))}",
          null=.7),
        N("city", "city"), N("state", lambda c: STATES[c["city"]]), P("zip", ADDR, "zip"),
        N("username", lambda c: f"{ascii_(c['first'])[0]}{ascii_(c['last'])}{r.randint(1, 99)}"),
        N("password_hash", lambda c: "pbkdf2_sha256$600000$" + g.digest()), P("signup_ip", IP, lambda c: g.ip(v6=.25)),
        N("kyc_status", lambda c: r.choice(W("verified verified verified pending rejected"))),
        N("created_at", lambda c: g.ts(), "TIMESTAMP"),
    ], row=lambda i: custs[i - 1])
    cards = table(g, con, db, "cards", 1200, [
        K("id"), N("customer_id", lambda c: c["k"] + 1, "INTEGER"),
        P("card_number", CARD, lambda c: c["card"] if r.random() < .5 else c["card"].replace(" ", "")),
        N("brand", lambda c: {"4": "visa", "3": "amex"}.get(c["card"][0], "mastercard")),
        N("exp_month", lambda c: r.randint(1, 12), "INTEGER"), N("exp_year", lambda c: r.randint(2024, 2030), "INTEGER"),
        P("name_on_card", NAME, lambda c: holder(custs[c["k"]])),
        N("status", lambda c: r.choice(W("active active active frozen closed"))), N("issued_at", lambda c: g.ts(), "TIMESTAMP"),
    ], row=lambda i: {"k": r.randrange(len(custs)), "card": g.card(spaced=True)})
    memos = ["Groceries", "Rent", "Coffee", "Uber ride", "Dinner with team", "Gym membership", "Invoice {n}", "Refund", "Gas"]
    table(g, con, db, "transactions", 2000, [
        K("id"), N("card_id", lambda c: c["k"] + 1, "INTEGER"), N("amount", lambda c: round(r.lognormvariate(3.5, 1.1), 2), "REAL"),
        N("currency", lambda c: r.choice(("USD",) * 8 + ("EUR", "MXN", "GBP"))), N("merchant", lambda c: r.choice(MERCHANTS)),
        N("mcc", lambda c: r.choice(("5411", "5812", "5814", "4121", "5541", "4899", "4511", "5912"))),
        N("status", lambda c: r.choice(W("settled settled settled pending declined reversed"))),
        N("created_at", lambda c: g.ts("%Y-%m-%dT%H:%M:%S.000Z", dt.datetime(2023, 1, 1)), "TIMESTAMP"),
        P("ip_address", IP, lambda c: g.ip(v6=.3), null=.3), N("device_id", lambda c: g.uuid()),
        P("instrument", CARD, lambda c: cards[c["k"]][2].replace(" ", ""), 1, null=.4),
        N("ref", lambda c: g.long_id(), extra="long_id"), N("memo", lambda c: g.text(memos, k=(1, 1)), extra="text", null=.5),
    ], row=lambda i: {"k": r.randrange(len(cards))})
    lang_of = {"DE": "de", "ES": "es", "FR": "fr", "NL": "nl", "IT": "it", "GB": "us"}
    purposes = ["Invoice {n}", "Rent", "Tuition fall semester", "Family support", "Consulting fee Q2", "Loan repayment"]
    table(g, con, db, "wire_transfers", 500, [
        K("id"), N("customer_id", lambda c: r.randint(1, len(custs)), "INTEGER"),
        P("beneficiary", NAME, lambda c: g.fullname(lang_of[c["cc"]]), 1),
        P("beneficiary_iban", IBAN, lambda c: g.iban(c["cc"], spaced=r.random() < .5)),
        N("bic", lambda c: g.bic(c["cc"])), N("amount", lambda c: round(r.uniform(50, 25000), 2), "REAL"),
        N("currency", lambda c: "GBP" if c["cc"] == "GB" else "EUR"),
        N("purpose", lambda c: g.text(purposes, k=(1, 1)), extra="text", null=.1),
        N("country", "cc"), N("sent_at", lambda c: g.ts(), "TIMESTAMP"),
        N("status", lambda c: r.choice(W("completed completed pending returned"))),
    ], row=lambda i: {"cc": r.choice(tuple(lang_of))})
    body = ["My card was declined at checkout.", "I don't recognize a charge from {m}.", "Please close my account.",
            "How do I raise my credit limit?", "The app crashes when I open statements.", "I want to dispute transaction #{n}.",
            "Thanks for the quick help last time.", "My payment has been pending for three days."]
    body_pii = ["Please call me back at {phone}.", "You can reach me at {email}.", "I was charged twice on my card {card}.",
                "Please send the statement to {email} instead.", "My new number is {phone}."]
    agents = [g.fullname("us") for _ in range(30)]
    table(g, con, db, "support_tickets", 800, [
        K("id"), N("customer_id", lambda c: r.randint(1, len(custs)), "INTEGER"),
        N("opened_at", lambda c: f"{c['opened']:%Y-%m-%d %H:%M:%S}", "TIMESTAMP"),
        N("channel", lambda c: r.choice(W("chat email phone app"))),
        N("subject", lambda c: r.choice(W("Card declined|Dispute|Account access|Limit increase|Statement|App issue", "|"))),
        P("body", TEXT, lambda c: g.text(body, body_pii, .07, "us", null=0, k=(1, 3))),
        P("agent", NAME, lambda c: r.choice(agents), 1, null=.1), N("priority", lambda c: r.choice(W("low normal normal high urgent"))),
        N("resolved_at", lambda c: f"{c['opened'] + dt.timedelta(minutes=r.randint(5, 20000)):%Y-%m-%d %H:%M:%S}", "TIMESTAMP", null=.3),
    ], row=lambda i: {"opened": dt.datetime.strptime(g.ts(), "%Y-%m-%d %H:%M:%S")})
    ids = {"US": ("SSN", lambda: g.ssn(dashes=r.random() < .5)), "BR": ("CPF", lambda: g.cpf(r.random() < .5)),
           "SE": ("PERSONNUMMER", lambda: g.personnummer(g.dob(), r.choice("FM"))), "NL": ("BSN", g.bsn), "ES": ("DNI", g.dni)}
    table(g, con, db, "kyc_checks", 900, [
        K("id"), N("customer_id", lambda c: r.randint(1, len(custs)), "INTEGER"),
        N("country", "cc"), N("id_type", lambda c: ids[c["cc"]][0]),
        P("id_value", NID, lambda c: ids[c["cc"]][1](), 1, ("ssn", "personnummer", "cpf", "bsn", "dni")),
        N("checked_at", lambda c: g.ts(), "TIMESTAMP"), N("result", lambda c: r.choice(W("pass pass pass review fail"))),
        N("score", lambda c: round(r.random(), 3), "REAL"), N("provider", lambda c: r.choice(W("Onfido Jumio Persona Alloy"))),
    ], row=lambda i: {"cc": r.choice(("US",) * 6 + ("SE", "BR", "NL", "ES"))})


def clinica_it_pl_se(con, db):
    """Written after privacy's rules for names, addresses and the newer
    national numbers, and asserted by cmd/discover's tests: not held out."""
    g = Gen(5005)
    r = g.r
    doctors = [g.fullname("it") for _ in range(30)]
    table(g, con, db, "pazienti", 700, [
        K("id_paziente"), P("nome", NAME, "first"), P("cognome", NAME, lambda c: c["last"].upper() if r.random() < .2 else c["last"]),
        P("codice_fiscale", NID, lambda c: g.codice_fiscale(c), extra=("cf",)),
        P("indirizzo", ADDR, "street"), N("citta", "city"), P("telefono", PHONE, "phone", null=.1),
        P("email", EMAIL, "email", null=.2), P("data_nascita", DOB, lambda c: f"{c['dob']:%d/%m/%Y}", extra="%d/%m/%Y"),
        P("medico", NAME, lambda c: r.choice(doctors), 1), N("reparto", lambda c: r.choice(W("Cardiologia Ortopedia Pediatria Neurologia"))),
    ], row=lambda i: g.person("it"))
    table(g, con, db, "pacjenci", 600, [
        K("id"), P("imie", NAME, "first"), P("nazwisko", NAME, "last"),
        P("numer", NID, lambda c: g.pesel(c["dob"], c["sex"]), 1, ("pesel",)),
        P("adres", ADDR, "street"), N("miasto", "city"), P("telefon", PHONE, "phone", null=.1),
        N("oddzial", lambda c: r.choice(W("Kardiologia Ortopedia Pediatria Neurologia Chirurgia"))),
        N("przyjety", lambda c: g.ts()),
    ], row=lambda i: g.person("pl"))
    table(g, con, db, "patienter", 600, [
        K("id"), P("fornamn", NAME, "first"), P("efternamn", NAME, "last"),
        P("personnummer", NID, lambda c: g.personnummer(c["dob"], c["sex"]), extra=("personnummer",)),
        P("gatuadress", ADDR, "street"), N("ort", "city"),
        P("kundnummer", NID, lambda c: g.fodselsnummer(c["dob"]), 1, ("fnr",), null=.5),
        N("avdelning", lambda c: r.choice(W("Kardiologi Ortopedi Barn Neurologi"))), N("inskriven", lambda c: g.ts()),
    ], row=lambda i: g.person("sv"))
    products = W("Siringa sterile 5 ml|Guanti in nitrile|Garza idrofila|Termometro digitale|Mascherina chirurgica|"
                 "Cerotto medicato|Soluzione fisiologica|Benda elastica|Stetoscopio|Sfigmomanometro|Camice monouso", "|")
    table(g, con, db, "fornitori", 400, [
        K("id_fornitore"), N("ragione_sociale", lambda c: f"{r.choice(NAMES['it'][2])} {r.choice(LEGAL['it'])}"),
        N("prodotto", lambda c: r.choice(products)), N("categoria", lambda c: r.choice(W("Consumabili Dispositivi Farmaci Arredi"))),
        N("citta", lambda c: r.choice(CITIES["it"])[0]), P("referente", NAME, lambda c: g.fullname("it"), 1),
        N("partita_iva", lambda c: g.partita_iva()), N("codice_articolo", lambda c: f"ART-{r.randint(10000, 99999)}"),
    ])
    table(g, con, db, "personale", 350, [
        K("staff_id"), P("nominativo", NAME, lambda c: g.fullname(r.choice(("it", "pl", "sv", "us"))), 1),
        P("codice_dip", NID, lambda c: g.nino(), 1, ("nino",)), P("riferimento", NID, lambda c: g.nhs(), 1, ("nhs",)),
        N("ruolo", lambda c: r.choice(W("Infermiere Medico Tecnico Amministrativo"))),
        N("turno", lambda c: r.choice(W("mattina pomeriggio notte"))),
    ])


# Validators, written from the schemes' definitions, independent of the generators.
def luhn_ok(d):
    return sum(int(c) for c in d[-1::-2]) % 10 == -sum(sum(divmod(2 * int(c), 10)) for c in d[-2::-2]) % 10


def card_ok(v):
    d = v.replace(" ", "")
    return d.isdigit() and 13 <= len(d) <= 19 and luhn_ok(d) and (
        d[0] == "4" or 51 <= int(d[:2]) <= 55 or 2221 <= int(d[:4]) <= 2720 or d[:2] in ("34", "37"))


def iban_ok(v):
    s = v.replace(" ", "")
    m = 0
    for ch in s[4:] + s[:4]:
        m = (m * (100 if ch.isalpha() else 10) + int(ch, 36)) % 97
    return IBAN_LEN.get(s[:2]) == len(s) and s[2:4].isdigit() and m == 1


def dni_ok(v):
    v = v.upper().replace("-", "")
    v = str("XYZ".index(v[0])) + v[1:] if v[:1] in ("X", "Y", "Z") else v
    return len(v) == 9 and v[:8].isdigit() and DNI_LETTERS[int(v[:8]) % 23] == v[8]


def cpf_ok(v):
    if not re.fullmatch(r"\d{3}\.?\d{3}\.?\d{3}-?\d{2}", v) or len(set(re.sub(r"\D", "", v))) == 1:
        return False
    d = [int(c) for c in re.sub(r"\D", "", v)]
    rests = [sum(x * (j + 1 - i) for i, x in enumerate(d[:j])) % 11 for j in (9, 10)]
    return [d[9], d[10]] == [0 if x < 2 else 11 - x for x in rests]


def valid_date(s, fmt):
    try:
        return bool(dt.datetime.strptime(s, fmt))
    except ValueError:
        return False


def steuer_id_ok(v):
    """11 digits, the first not 0, one of the first ten digits two or three
    times and none other more than once, ISO 7064 MOD 11,10 leaving 1."""
    if not re.fullmatch(r"[1-9]\d{10}", v):
        return False
    counts = [v[:10].count(x) for x in "0123456789"]
    p = s = 10
    for x in map(int, v):
        s = (x + p) % 10 or 10
        p = 2 * s % 11
    return max(counts) in (2, 3) and sum(c > 1 for c in counts) == 1 and s == 1


def rvnr_ok(v):
    m = re.fullmatch(r"(\d{2})(\d{6})([A-Z])(\d{2})(\d)", v.replace(" ", ""))
    if not m or not valid_date(m[2], "%d%m%y"):
        return False
    ds = m[1] + m[2] + f"{ord(m[3]) - 64:02d}" + m[4]
    return sum((int(x) * w) // 10 + (int(x) * w) % 10 for x, w in zip(ds, [2, 1, 2, 5, 7, 1, 2, 1, 2, 1, 2, 1])) % 10 == int(m[5])


def bsn_ok(v):
    return len(v) == 9 and v.isdigit() and (sum(w * int(x) for w, x in zip(range(9, 1, -1), v)) - int(v[8])) % 11 == 0


def personnummer_ok(v):
    return re.fullmatch(r"\d{6}[-+]\d{4}", v) is not None and valid_date(v[:6], "%y%m%d") and luhn_ok(v[:6] + v[7:])


def nir_ok(v):
    d = v.replace(" ", "")
    return re.fullmatch(r"[12]\d{14}", d) is not None and 1 <= int(d[3:5]) <= 12 and (int(d[:13]) + int(d[13:])) % 97 == 0


def ssn_ok(v):
    m = re.fullmatch(r"(\d{3})(-?)(\d{2})\2(\d{4})", v)
    return bool(m) and m[1] not in ("000", "666") and m[1][0] != "9" and m[3] != "00" and m[4] != "0000"


def cf_ok(v):
    odd = [1, 0, 5, 7, 9, 13, 15, 17, 19, 21]
    odd_letters = [1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 2, 4, 18, 20, 11, 3, 6, 8, 12, 14, 16, 10, 22, 25, 24, 23]
    if re.fullmatch(r"[A-Z]{6}\d\d[ABCDEHLMPRST]\d\d[A-Z]\d{3}[A-Z]", v) is None:
        return False
    total = 0
    for i, c in enumerate(v[:15]):
        if i % 2 == 0:
            total += odd[int(c)] if c.isdigit() else odd_letters[ord(c) - 65]
        else:
            total += int(c) if c.isdigit() else ord(c) - 65
    return v[15] == chr(65 + total % 26)


def pesel_ok(v):
    return re.fullmatch(r"\d{11}", v) is not None and (sum(int(x) * w for x, w in zip(v[:10], (1, 3, 7, 9) * 3)) + int(v[10])) % 10 == 0


def nino_ok(v):
    v = v.replace(" ", "")
    return (re.fullmatch(r"[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z]\d{6}[A-D]", v) is not None
            and v[:2] not in ("BG", "GB", "KN", "NK", "NT", "TN", "ZZ"))


def nhs_ok(v):
    v = v.replace(" ", "")
    return re.fullmatch(r"\d{10}", v) is not None and (sum(int(x) * (11 - i) for i, x in enumerate(v[:9], 1)) + int(v[9])) % 11 == 0


def fnr_ok(v):
    ok = re.fullmatch(r"\d{11}", v) is not None and valid_date(v[:6], "%d%m%y")
    return ok and all(sum(int(x) * w for x, w in zip(v, ws)) % 11 == 0
                      for ws in ((3, 7, 6, 1, 8, 9, 4, 5, 2, 1), (5, 4, 3, 2, 7, 6, 5, 4, 3, 2, 1)))


NID_OK = {"dni": dni_ok, "cpf": cpf_ok, "steuer_id": steuer_id_ok, "rvnr": rvnr_ok, "bsn": bsn_ok,
          "personnummer": personnummer_ok, "nir": nir_ok, "ssn": ssn_ok, "cf": cf_ok, "pesel": pesel_ok,
          "nino": nino_ok, "nhs": nhs_ok, "fnr": fnr_ok}


def age(born):
    return REF.year - born.year - ((REF.month, REF.day) < (born.month, born.day))


def personal_in_text(v):
    """An e-mail address or phone number in text: an @, a leading plus, an
    area code in parentheses, or nine digits or more with spaces, dots,
    dashes or slashes between."""
    return "@" in v or re.search(r"\+\d|\(\d{2,5}\) ?\d", v) is not None or any(
        sum(ch.isdigit() for ch in m) >= 9 for m in re.findall(r"\d(?:[ ./-]?\d)+", v))


def check(out):
    """Asserts the output: every column of every table has exactly one truth
    row; 3-6 tables of 300-2000 rows; every card, IBAN and national id
    passes its checksum; dates of birth give ages 18 to 90; free_text
    columns embed a personal value in 2-10% of their values, other free
    text in none; Luhn decoys mostly fail."""
    assert all(card_ok(x) for x in ("4111111111111111", "5555 5555 5555 4444", "378282246310005"))
    assert all(iban_ok(x) for x in ("DE89370400440532013000", "GB82 WEST 1234 5698 7654 32", "NL91ABNA0417164300",
                                    "FR1420041010050500013M02606", "ES9121000418450200051332", "IT60X0542811101000000123456"))
    assert dni_ok("12345678Z") and bsn_ok("111222333") and cpf_ok("529.982.247-25") and nir_ok("2 55 08 14 168 025 38")
    assert rvnr_ok("15070649C103") and steuer_id_ok("86095742719") and personnummer_ok("811228-9874") and ssn_ok("123-45-6789")
    assert cf_ok("RSSMRA85T10A562S") and pesel_ok("44051401359") and nino_ok("AB123456C") and nhs_ok("9434765919")
    assert fnr_ok("01065100394") and not any((cf_ok("RSSMRA85T10A562T"), pesel_ok("44051401358"), nino_ok("QQ123456C"),
                                              nhs_ok("9434765918"), fnr_ok("01065100395")))
    assert not any((iban_ok("DE88370400440532013000"), dni_ok("12345678A"), bsn_ok("111222334"), cpf_ok("529.982.247-24"),
                    ssn_ok("666-45-6789"), steuer_id_ok("86095742718"), rvnr_ok("15070649C104"), card_ok("4111111111111112")))
    with open(os.path.join(out, "TRUTH.tsv")) as f:
        rows = [line.rstrip("\n").split("\t") for line in f][1:]
    truth = {}
    for d, t, c, cat in rows:
        assert (d, t, c) not in truth and cat in CATEGORIES, (d, t, c, cat)
        truth[(d, t, c)] = cat
    spec = {(s.db, s.table, s.column): s for s in SPEC}
    with open(os.path.join(out, "MANIFEST.tsv")) as f:
        manifest = [line.rstrip("\n").split("\t") for line in f][1:]
    seen = 0
    for name, file, _ in manifest:
        con = sqlite3.connect(os.path.join(out, file))
        tables = [t for (t,) in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        assert 3 <= len(tables) <= 6, (name, tables)
        for t in tables:
            assert 300 <= con.execute(f"SELECT count(*) FROM {t}").fetchone()[0] <= 2000, (name, t)
            for col in [c[1] for c in con.execute(f"PRAGMA table_info({t})")]:
                seen += 1
                s = spec[(name, t, col)]
                assert truth.get((name, t, col)) == s.category, (name, t, col, "has no truth row or a wrong one")
                vals = [v for (v,) in con.execute(f"SELECT {col} FROM {t} WHERE {col} IS NOT NULL")]
                bad = {CARD: lambda v: not card_ok(v), IBAN: lambda v: not iban_ok(v),
                       NID: lambda v: not any(NID_OK[k](v) for k in s.extra),
                       DOB: lambda v: not 18 <= age(dt.datetime.strptime(v, s.extra).date()) <= 90}.get(s.category)
                assert vals and not (bad and any(map(bad, vals))), (name, t, col, [v for v in vals if bad and bad(v)][:3])
                assert all(v == v.strip() for v in vals if isinstance(v, str)), (name, t, col)
                if s.category == TEXT or s.extra == "text":
                    share = sum(map(personal_in_text, vals)) / len(vals)
                    assert (.02 <= share <= .10) if s.category == TEXT else share == 0, (name, t, col, share)
                if s.extra == "long_id":
                    assert sum(map(luhn_ok, vals)) / len(vals) < .2, (name, t, col)
        con.close()
    assert seen == len(rows) == len(SPEC), (seen, len(rows), len(SPEC))
    assert TEXT_CARDS and all(map(card_ok, TEXT_CARDS))


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: python3 cmd/piibench/generate.py OUT_DIR")
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    dbs = [("personal_de", personal_de), ("tienda_es", tienda_es), ("crm_fr_nl", crm_fr_nl), ("fintech_us", fintech_us),
           ("clinica_it_pl_se", clinica_it_pl_se)]
    held_out = {"personal_de", "tienda_es", "crm_fr_nl", "fintech_us"}
    for name, build in dbs:
        path = os.path.join(out, name + ".db")
        if os.path.exists(path):
            os.remove(path)
        con = sqlite3.connect(path)
        build(con, name)
        con.commit()
        con.close()
    with open(os.path.join(out, "MANIFEST.tsv"), "w") as f:
        f.write("name\tfile\theld_out\n" + "".join(f"{name}\t{name}.db\t{'yes' if name in held_out else 'no'}\n" for name, _ in dbs))
    with open(os.path.join(out, "TRUTH.tsv"), "w") as f:
        f.write("db\ttable\tcolumn\tcategory\n" + "".join(f"{s.db}\t{s.table}\t{s.column}\t{s.category}\n" for s in SPEC))
    check(out)
    for name, _ in dbs:
        tables = collections.Counter(s.table for s in SPEC if s.db == name)
        print(f"{name}: " + ", ".join(f"{t} ({n} columns)" for t, n in tables.items()), file=sys.stderr)
    print("category         columns  hidden", file=sys.stderr)
    for c in CATEGORIES:
        cols = [s for s in SPEC if s.category == c]
        print(f"{c:16s} {len(cols):7d}  {sum(s.hidden for s in cols):6d}", file=sys.stderr)
    print(f"checked {len(SPEC)} columns and {len(TEXT_CARDS)} card numbers in free text", file=sys.stderr)


if __name__ == "__main__":
    main()

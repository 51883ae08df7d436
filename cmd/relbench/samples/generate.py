#!/usr/bin/env python3
"""Builds relbench's sample-database set: six schemas that database tutorials
and benchmarks hand every new user, written from their published DDL, filled
with invented data (Python's standard library only, a fixed seed). None was
looked at while relationship inference was written; each comes twice, as
its DDL declares its primary keys (foreign keys are declared too, and
relbench ignores them) and as a lake holds it (`_lake`: the same rows, no
key of any kind).

- tpcc: TPC-C's nine tables (spec 5.11, clause 1.3). Every column carries
  its table's prefix (w_, d_, c_, h_, no_, o_, ol_, i_, s_), keys are
  numbered 1..n inside their parent (ten districts per warehouse, customers
  and orders per district), so that nearly every reference is composite:
  customer(c_w_id, c_d_id) -> district(d_w_id, d_id), order_line(ol_w_id,
  ol_d_id, ol_o_id) -> orders(o_w_id, o_d_id, o_id), order_line
  (ol_supply_w_id, ol_i_id) -> stock(s_w_id, s_i_id). Two warehouses, 300
  customers and orders per district (the spec's 3,000 scaled down), 2,000
  items. Small counters look like keys: o_carrier_id 1..10 as d_id is,
  o_ol_cnt and ol_number 1..15, i_im_id 1..10,000.
- employees: MySQL's employees sample (datacharmer/test_db): emp_no from
  10001, dept_no CHAR(4) 'd001'..'d009', dept_emp and dept_manager keyed by
  (emp_no, dept_no), titles by (emp_no, title, from_date), salaries by
  (emp_no, from_date).
- classicmodels: the MySQL tutorial's model-car retailer: camelCase names,
  roles with no word of their target (customers.salesRepEmployeeNumber and
  employees.reportsTo -> employees.employeeNumber), text keys
  (offices.officeCode '1'..'7', products.productCode 'S10_1678',
  productlines.productLine), orderdetails keyed by (orderNumber,
  productCode), payments by (customerNumber, checkNumber).
- world: MySQL's world sample: country keyed by its three-letter Code,
  city.CountryCode and countrylanguage.CountryCode -> country.Code, and
  country.Capital -> city.ID (a capital is a city; NULL for a territory with
  none). Code2 is unique and referenced by nothing.
- adventureworkslt: Microsoft's AdventureWorksLT (SalesLT): CamelCase keys
  (CustomerID, ProductCategoryID), roles of one table (ShipToAddressID and
  BillToAddressID -> Address), a self reference
  (ParentProductCategoryID), bridges keyed by both ends (CustomerAddress,
  ProductModelProductDescription with its Culture), keys that start far
  from 1 (ProductID 680.., SalesOrderID 71774..).
- stackoverflow: the Stack Exchange data dump as loaded into SQL Server:
  every key Id, references named by role (OwnerUserId, LastEditorUserId ->
  Users; AcceptedAnswerId, ParentId, RelatedPostId, ExcerptPostId,
  WikiPostId -> Posts), lookups numbered 1..n (PostTypes, VoteTypes,
  LinkTypes), 0 for a question's ParentId, the Community user -1.

The truth is each schema's documented foreign keys, checked against the data
as shared/'s FK_CHECK.tsv is (a composite's columns comma-separated).

    python3 cmd/relbench/samples/generate.py OUT_DIR
    go run ./cmd/relbench -datasets OUT_DIR -v
"""
import os
import random
import sqlite3
import string
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import appsets  # noqa: E402 (relbench's shared check and writer)

FIRST = ("Georgi Bezalel Parto Chirstian Kyoichi Anneke Tzvetan Saniya Sumant Duangkaew Mary Patricio Eberhardt Berni "
         "Guoxiang Kazuhito Cristinel Kazuhide Lillian Mayuko Ramzi Shahaf Bojan Suzette Prasadram Yongqiao Divier "
         "Domenick Otmar Elvis Karsten Jeong Arif Bader Alain Adamantios Pradeep Huan Alejandro Weiyi Uri Magy").split()
LAST = ("Facello Simmel Bamford Koblick Maliniak Preusig Zielinski Kalloufi Peac Piveteau Sluis Bridgland Terkki "
        "Genin Nooteboom Cappelletti Bouloucos Peha Haddadi Warwick Erde Famili Montemayor Pettey Heyers Demeyer "
        "Baek Kalisetti Merlo Swan Lortz Brender Dredge Nyanchama Casley Koblick Tramer Gide Kapadia Reistad").split()
WORDS = ("alpha bravo carbon delta ember falcon granite harbor iris juniper kelp lumen mesa nova orbit pine quartz "
         "raven sierra tundra umber vega willow xenon yarrow zephyr").split()


def word(rnd, n=1):
    return " ".join(rnd.choice(WORDS) for _ in range(n))


def day(rnd, lo=1985, hi=2002):
    return f"{rnd.randint(lo, hi):04d}-{rnd.randint(1, 12):02d}-{rnd.randint(1, 28):02d}"


def tpcc(path):
    rnd = random.Random(21)
    c = sqlite3.connect(path)
    W, D, C, I, O = 2, 10, 300, 2000, 300
    c.executescript("""
    CREATE TABLE warehouse (w_id SMALLINT NOT NULL, w_name VARCHAR(10), w_street_1 VARCHAR(20), w_street_2 VARCHAR(20),
        w_city VARCHAR(20), w_state CHAR(2), w_zip CHAR(9), w_tax DECIMAL(4,4), w_ytd DECIMAL(12,2), PRIMARY KEY (w_id));
    CREATE TABLE district (d_id TINYINT NOT NULL, d_w_id SMALLINT NOT NULL, d_name VARCHAR(10), d_street_1 VARCHAR(20),
        d_street_2 VARCHAR(20), d_city VARCHAR(20), d_state CHAR(2), d_zip CHAR(9), d_tax DECIMAL(4,4), d_ytd DECIMAL(12,2),
        d_next_o_id INT, PRIMARY KEY (d_w_id, d_id), FOREIGN KEY (d_w_id) REFERENCES warehouse (w_id));
    CREATE TABLE customer (c_id INT NOT NULL, c_d_id TINYINT NOT NULL, c_w_id SMALLINT NOT NULL, c_first VARCHAR(16),
        c_middle CHAR(2), c_last VARCHAR(16), c_street_1 VARCHAR(20), c_street_2 VARCHAR(20), c_city VARCHAR(20), c_state CHAR(2),
        c_zip CHAR(9), c_phone CHAR(16), c_since DATETIME, c_credit CHAR(2), c_credit_lim BIGINT, c_discount DECIMAL(4,2),
        c_balance DECIMAL(12,2), c_ytd_payment DECIMAL(12,2), c_payment_cnt SMALLINT, c_delivery_cnt SMALLINT, c_data TEXT,
        PRIMARY KEY (c_w_id, c_d_id, c_id), FOREIGN KEY (c_w_id, c_d_id) REFERENCES district (d_w_id, d_id));
    CREATE TABLE history (h_c_id INT, h_c_d_id TINYINT, h_c_w_id SMALLINT, h_d_id TINYINT, h_w_id SMALLINT, h_date DATETIME,
        h_amount DECIMAL(6,2), h_data VARCHAR(24),
        FOREIGN KEY (h_c_w_id, h_c_d_id, h_c_id) REFERENCES customer (c_w_id, c_d_id, c_id),
        FOREIGN KEY (h_w_id, h_d_id) REFERENCES district (d_w_id, d_id));
    CREATE TABLE orders (o_id INT NOT NULL, o_d_id TINYINT NOT NULL, o_w_id SMALLINT NOT NULL, o_c_id INT, o_entry_d DATETIME,
        o_carrier_id TINYINT, o_ol_cnt TINYINT, o_all_local TINYINT, PRIMARY KEY (o_w_id, o_d_id, o_id),
        FOREIGN KEY (o_w_id, o_d_id, o_c_id) REFERENCES customer (c_w_id, c_d_id, c_id));
    CREATE TABLE new_order (no_o_id INT NOT NULL, no_d_id TINYINT NOT NULL, no_w_id SMALLINT NOT NULL,
        PRIMARY KEY (no_w_id, no_d_id, no_o_id), FOREIGN KEY (no_w_id, no_d_id, no_o_id) REFERENCES orders (o_w_id, o_d_id, o_id));
    CREATE TABLE item (i_id INT NOT NULL, i_im_id INT, i_name VARCHAR(24), i_price DECIMAL(5,2), i_data VARCHAR(50), PRIMARY KEY (i_id));
    CREATE TABLE stock (s_i_id INT NOT NULL, s_w_id SMALLINT NOT NULL, s_quantity SMALLINT, s_dist_01 CHAR(24), s_dist_02 CHAR(24),
        s_dist_03 CHAR(24), s_dist_04 CHAR(24), s_dist_05 CHAR(24), s_dist_06 CHAR(24), s_dist_07 CHAR(24), s_dist_08 CHAR(24),
        s_dist_09 CHAR(24), s_dist_10 CHAR(24), s_ytd DECIMAL(8,0), s_order_cnt SMALLINT, s_remote_cnt SMALLINT, s_data VARCHAR(50),
        PRIMARY KEY (s_w_id, s_i_id), FOREIGN KEY (s_w_id) REFERENCES warehouse (w_id), FOREIGN KEY (s_i_id) REFERENCES item (i_id));
    CREATE TABLE order_line (ol_o_id INT NOT NULL, ol_d_id TINYINT NOT NULL, ol_w_id SMALLINT NOT NULL, ol_number TINYINT NOT NULL,
        ol_i_id INT, ol_supply_w_id SMALLINT, ol_delivery_d DATETIME, ol_quantity TINYINT, ol_amount DECIMAL(6,2), ol_dist_info CHAR(24),
        PRIMARY KEY (ol_w_id, ol_d_id, ol_o_id, ol_number), FOREIGN KEY (ol_w_id, ol_d_id, ol_o_id) REFERENCES orders (o_w_id, o_d_id, o_id),
        FOREIGN KEY (ol_supply_w_id, ol_i_id) REFERENCES stock (s_w_id, s_i_id));
    """)

    def astr(lo, hi):
        return "".join(rnd.choice(string.ascii_letters + string.digits) for _ in range(rnd.randint(lo, hi)))

    def addr():
        return (astr(10, 20), astr(10, 20), astr(10, 20), rnd.choice(["CA", "NY", "TX", "WA", "OR"]), f"{rnd.randint(0, 9999):04d}11111")

    syllables = "BAR OUGHT ABLE PRI PRES ESE ANTI CALLY ATION EING".split()
    for i in range(1, I + 1):
        c.execute("INSERT INTO item VALUES (?,?,?,?,?)", (i, rnd.randint(1, 10000), astr(14, 24), round(rnd.uniform(1, 100), 2), astr(26, 50)))
    for w in range(1, W + 1):
        c.execute("INSERT INTO warehouse VALUES (?,?,?,?,?,?,?,?,?)", (w, astr(6, 10), *addr(), round(rnd.uniform(0, 0.2), 4), 300000.00))
        for i in range(1, I + 1):
            c.execute("INSERT INTO stock VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                      (i, w, rnd.randint(10, 100), *(astr(24, 24) for _ in range(10)), 0, 0, 0, astr(26, 50)))
        for d in range(1, D + 1):
            c.execute("INSERT INTO district VALUES (?,?,?,?,?,?,?,?,?,?,?)", (d, w, astr(6, 10), *addr(), round(rnd.uniform(0, 0.2), 4), 30000.00, O + 1))
            for cid in range(1, C + 1):
                last = "".join(syllables[int(x)] for x in f"{(cid - 1) % 1000:03d}")
                c.execute("INSERT INTO customer VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                          (cid, d, w, astr(8, 16), "OE", last, *addr(), "".join(rnd.choice(string.digits) for _ in range(16)),
                           "2026-01-01 00:00:00", "BC" if rnd.random() < 0.1 else "GC", 50000, round(rnd.uniform(0, 0.5), 4), -10.00, 10.00, 1, 0,
                           astr(300, 500)))
                c.execute("INSERT INTO history VALUES (?,?,?,?,?,?,?,?)", (cid, d, w, d, w, "2026-01-01 00:00:00", 10.00, astr(12, 24)))
            perm = list(range(1, C + 1))
            rnd.shuffle(perm)
            for o in range(1, O + 1):
                new = o > O * 7 // 10
                cnt = rnd.randint(5, 15)
                c.execute("INSERT INTO orders VALUES (?,?,?,?,?,?,?,?)",
                          (o, d, w, perm[o - 1], "2026-01-01 00:00:00", None if new else rnd.randint(1, 10), cnt, 1))
                if new:
                    c.execute("INSERT INTO new_order VALUES (?,?,?)", (o, d, w))
                for n in range(1, cnt + 1):
                    supply = w if W == 1 or rnd.random() > 0.01 else rnd.choice([x for x in range(1, W + 1) if x != w])
                    c.execute("INSERT INTO order_line VALUES (?,?,?,?,?,?,?,?,?,?)",
                              (o, d, w, n, rnd.randint(1, I), supply, None if new else "2026-01-01 00:00:00", 5,
                               0.00 if not new else round(rnd.uniform(0.01, 9999.99), 2), astr(24, 24)))
    c.commit()
    return c, [
        ("district", "d_w_id", "warehouse", "w_id", False),
        ("customer", "c_w_id,c_d_id", "district", "d_w_id,d_id", False),
        ("history", "h_c_w_id,h_c_d_id,h_c_id", "customer", "c_w_id,c_d_id,c_id", False),
        ("history", "h_w_id,h_d_id", "district", "d_w_id,d_id", False),
        ("new_order", "no_w_id,no_d_id,no_o_id", "orders", "o_w_id,o_d_id,o_id", False),
        ("orders", "o_w_id,o_d_id,o_c_id", "customer", "c_w_id,c_d_id,c_id", False),
        ("order_line", "ol_w_id,ol_d_id,ol_o_id", "orders", "o_w_id,o_d_id,o_id", False),
        ("order_line", "ol_supply_w_id,ol_i_id", "stock", "s_w_id,s_i_id", False),
        ("stock", "s_w_id", "warehouse", "w_id", False),
        ("stock", "s_i_id", "item", "i_id", False),
    ]


def employees(path):
    rnd = random.Random(22)
    c = sqlite3.connect(path)
    c.executescript("""
    CREATE TABLE employees (emp_no INT NOT NULL, birth_date DATE NOT NULL, first_name VARCHAR(14) NOT NULL, last_name VARCHAR(16) NOT NULL,
        gender TEXT NOT NULL CHECK (gender IN ('M', 'F')), hire_date DATE NOT NULL, PRIMARY KEY (emp_no));
    CREATE TABLE departments (dept_no CHAR(4) NOT NULL, dept_name VARCHAR(40) NOT NULL, PRIMARY KEY (dept_no), UNIQUE (dept_name));
    CREATE TABLE dept_manager (emp_no INT NOT NULL, dept_no CHAR(4) NOT NULL, from_date DATE NOT NULL, to_date DATE NOT NULL,
        FOREIGN KEY (emp_no) REFERENCES employees (emp_no) ON DELETE CASCADE,
        FOREIGN KEY (dept_no) REFERENCES departments (dept_no) ON DELETE CASCADE, PRIMARY KEY (emp_no, dept_no));
    CREATE TABLE dept_emp (emp_no INT NOT NULL, dept_no CHAR(4) NOT NULL, from_date DATE NOT NULL, to_date DATE NOT NULL,
        FOREIGN KEY (emp_no) REFERENCES employees (emp_no) ON DELETE CASCADE,
        FOREIGN KEY (dept_no) REFERENCES departments (dept_no) ON DELETE CASCADE, PRIMARY KEY (emp_no, dept_no));
    CREATE TABLE titles (emp_no INT NOT NULL, title VARCHAR(50) NOT NULL, from_date DATE NOT NULL, to_date DATE,
        FOREIGN KEY (emp_no) REFERENCES employees (emp_no) ON DELETE CASCADE, PRIMARY KEY (emp_no, title, from_date));
    CREATE TABLE salaries (emp_no INT NOT NULL, salary INT NOT NULL, from_date DATE NOT NULL, to_date DATE NOT NULL,
        FOREIGN KEY (emp_no) REFERENCES employees (emp_no) ON DELETE CASCADE, PRIMARY KEY (emp_no, from_date));
    """)
    depts = ["Marketing", "Finance", "Human Resources", "Production", "Development", "Quality Management", "Sales", "Research", "Customer Service"]
    for k, name in enumerate(depts, 1):
        c.execute("INSERT INTO departments VALUES (?,?)", (f"d{k:03d}", name))
    N = 3000
    titles = ["Engineer", "Senior Engineer", "Staff", "Senior Staff", "Assistant Engineer", "Technique Leader", "Manager"]
    for e in range(10001, 10001 + N):
        hire = rnd.randint(1985, 2000)
        c.execute("INSERT INTO employees VALUES (?,?,?,?,?,?)",
                  (e, day(rnd, 1952, 1965), rnd.choice(FIRST), rnd.choice(LAST), rnd.choice("MF"), f"{hire}-{rnd.randint(1, 12):02d}-{rnd.randint(1, 28):02d}"))
        moves = [f"d{k:03d}" for k in rnd.sample(range(1, 10), 1 if rnd.random() < 0.9 else 2)]
        years = list(range(hire, 2003))
        cut = hire + (len(years) // 2 if len(moves) == 2 else len(years))
        for j, dept in enumerate(moves):
            start, end = (hire, cut) if j == 0 else (cut, 2003)
            c.execute("INSERT INTO dept_emp VALUES (?,?,?,?)", (e, dept, f"{start}-01-15", "9999-01-01" if end >= 2003 else f"{end}-01-14"))
        for j, t in enumerate(rnd.sample(titles, rnd.randint(1, 2))):
            c.execute("INSERT INTO titles VALUES (?,?,?,?)", (e, t, f"{hire + 3 * j}-02-01", None if j else "9999-01-01"))
        pay = rnd.randint(40000, 70000)
        for y in range(hire, min(hire + rnd.randint(3, 12), 2003)):
            pay += rnd.randint(0, 4000)
            c.execute("INSERT INTO salaries VALUES (?,?,?,?)", (e, pay, f"{y}-06-01", f"{y + 1}-06-01"))
    managers = rnd.sample(range(10001, 10001 + N), 24)
    for k in range(1, 10):
        for j, m in enumerate(managers[(k - 1) * 2:(k - 1) * 2 + rnd.randint(1, 2)]):
            c.execute("INSERT INTO dept_manager VALUES (?,?,?,?)", (m, f"d{k:03d}", f"{1985 + 5 * j}-01-01", "9999-01-01" if j else "1991-10-01"))
    c.commit()
    return c, [
        ("dept_manager", "emp_no", "employees", "emp_no", False), ("dept_manager", "dept_no", "departments", "dept_no", False),
        ("dept_emp", "emp_no", "employees", "emp_no", False), ("dept_emp", "dept_no", "departments", "dept_no", False),
        ("titles", "emp_no", "employees", "emp_no", False), ("salaries", "emp_no", "employees", "emp_no", False),
    ]


def classicmodels(path):
    rnd = random.Random(23)
    c = sqlite3.connect(path)
    c.executescript("""
    CREATE TABLE productlines (productLine VARCHAR(50) NOT NULL, textDescription VARCHAR(4000), htmlDescription MEDIUMTEXT,
        image MEDIUMBLOB, PRIMARY KEY (productLine));
    CREATE TABLE products (productCode VARCHAR(15) NOT NULL, productName VARCHAR(70) NOT NULL, productLine VARCHAR(50) NOT NULL,
        productScale VARCHAR(10) NOT NULL, productVendor VARCHAR(50) NOT NULL, productDescription TEXT NOT NULL,
        quantityInStock SMALLINT NOT NULL, buyPrice DECIMAL(10,2) NOT NULL, MSRP DECIMAL(10,2) NOT NULL, PRIMARY KEY (productCode),
        FOREIGN KEY (productLine) REFERENCES productlines (productLine));
    CREATE TABLE offices (officeCode VARCHAR(10) NOT NULL, city VARCHAR(50) NOT NULL, phone VARCHAR(50) NOT NULL,
        addressLine1 VARCHAR(50) NOT NULL, addressLine2 VARCHAR(50), state VARCHAR(50), country VARCHAR(50) NOT NULL,
        postalCode VARCHAR(15) NOT NULL, territory VARCHAR(10) NOT NULL, PRIMARY KEY (officeCode));
    CREATE TABLE employees (employeeNumber INT NOT NULL, lastName VARCHAR(50) NOT NULL, firstName VARCHAR(50) NOT NULL,
        extension VARCHAR(10) NOT NULL, email VARCHAR(100) NOT NULL, officeCode VARCHAR(10) NOT NULL, reportsTo INT,
        jobTitle VARCHAR(50) NOT NULL, PRIMARY KEY (employeeNumber), FOREIGN KEY (reportsTo) REFERENCES employees (employeeNumber),
        FOREIGN KEY (officeCode) REFERENCES offices (officeCode));
    CREATE TABLE customers (customerNumber INT NOT NULL, customerName VARCHAR(50) NOT NULL, contactLastName VARCHAR(50) NOT NULL,
        contactFirstName VARCHAR(50) NOT NULL, phone VARCHAR(50) NOT NULL, addressLine1 VARCHAR(50) NOT NULL, addressLine2 VARCHAR(50),
        city VARCHAR(50) NOT NULL, state VARCHAR(50), postalCode VARCHAR(15), country VARCHAR(50) NOT NULL,
        salesRepEmployeeNumber INT, creditLimit DECIMAL(10,2), PRIMARY KEY (customerNumber),
        FOREIGN KEY (salesRepEmployeeNumber) REFERENCES employees (employeeNumber));
    CREATE TABLE orders (orderNumber INT NOT NULL, orderDate DATE NOT NULL, requiredDate DATE NOT NULL, shippedDate DATE,
        status VARCHAR(15) NOT NULL, comments TEXT, customerNumber INT NOT NULL, PRIMARY KEY (orderNumber),
        FOREIGN KEY (customerNumber) REFERENCES customers (customerNumber));
    CREATE TABLE orderdetails (orderNumber INT NOT NULL, productCode VARCHAR(15) NOT NULL, quantityOrdered INT NOT NULL,
        priceEach DECIMAL(10,2) NOT NULL, orderLineNumber SMALLINT NOT NULL, PRIMARY KEY (orderNumber, productCode),
        FOREIGN KEY (orderNumber) REFERENCES orders (orderNumber), FOREIGN KEY (productCode) REFERENCES products (productCode));
    CREATE TABLE payments (customerNumber INT NOT NULL, checkNumber VARCHAR(50) NOT NULL, paymentDate DATE NOT NULL,
        amount DECIMAL(10,2) NOT NULL, PRIMARY KEY (customerNumber, checkNumber),
        FOREIGN KEY (customerNumber) REFERENCES customers (customerNumber));
    """)
    lines = ["Classic Cars", "Motorcycles", "Planes", "Ships", "Trains", "Trucks and Buses", "Vintage Cars"]
    for pl in lines:
        c.execute("INSERT INTO productlines VALUES (?,?,?,?)", (pl, f"{pl}: {word(rnd, 12)}", None, None))
    scales = ["1:10", "1:12", "1:18", "1:24", "1:32", "1:50", "1:72", "1:700"]
    codes = set()
    while len(codes) < 110:
        codes.add(f"S{rnd.choice([10, 12, 18, 24, 32, 50, 72, 700])}_{rnd.randint(1000, 4999)}")
    codes = sorted(codes)
    for pc in codes:
        buy = round(rnd.uniform(15, 100), 2)
        c.execute("INSERT INTO products VALUES (?,?,?,?,?,?,?,?,?)",
                  (pc, f"{rnd.randint(1937, 2003)} {word(rnd, 2).title()}", rnd.choice(lines), rnd.choice(scales),
                   f"{word(rnd).title()} {rnd.choice(['Diecast', 'Models', 'Replicas', 'Collectables'])}", word(rnd, 15),
                   rnd.randint(0, 9999), buy, round(buy * rnd.uniform(1.5, 2.2), 2)))
    cities = [("San Francisco", "USA", "NA"), ("Boston", "USA", "NA"), ("NYC", "USA", "NA"), ("Paris", "France", "EMEA"),
              ("Tokyo", "Japan", "Japan"), ("Sydney", "Australia", "APAC"), ("London", "UK", "EMEA")]
    for k, (city, country, terr) in enumerate(cities, 1):
        c.execute("INSERT INTO offices VALUES (?,?,?,?,?,?,?,?,?)",
                  (str(k), city, f"+1 650 219 {rnd.randint(1000, 9999)}", f"{rnd.randint(1, 999)} {word(rnd).title()} Street", None, None,
                   country, f"{rnd.randint(10000, 99999)}", terr))
    emps = [1002, 1056, 1076, 1088, 1102, 1143, 1165, 1166, 1188, 1216, 1286, 1323, 1337, 1370, 1401, 1501, 1504, 1611, 1612, 1619, 1621, 1625, 1702]
    boss = {1002: None, 1056: 1002, 1076: 1002, 1088: 1056, 1102: 1056, 1143: 1056}
    for e in emps:
        first, last = rnd.choice(FIRST), rnd.choice(LAST)
        c.execute("INSERT INTO employees VALUES (?,?,?,?,?,?,?,?)",
                  (e, last, first, f"x{rnd.randint(100, 9999)}", f"{first[0].lower()}{last.lower()}@classicmodelcars.com",
                   "1" if e in boss else str(rnd.randint(1, 7)), boss.get(e, rnd.choice([1088, 1102, 1143])) if e != 1002 else None,
                   "President" if e == 1002 else "VP Sales" if e in boss else "Sales Rep"))
    reps = [e for e in emps if e not in boss]
    custs = sorted(rnd.sample(range(103, 497), 122))
    for k in custs:
        c.execute("INSERT INTO customers VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
                  (k, f"{word(rnd).title()} {rnd.choice(['Co.', 'Ltd.', 'Gifts', 'Imports', 'Collectables'])}", rnd.choice(LAST), rnd.choice(FIRST),
                   f"{rnd.randint(100, 999)}.555.{rnd.randint(1000, 9999)}", f"{rnd.randint(1, 999)} {word(rnd).title()} Rd.", None,
                   word(rnd).title(), None, f"{rnd.randint(10000, 99999)}", rnd.choice(["USA", "France", "Germany", "Spain", "Japan", "UK"]),
                   None if rnd.random() < 0.18 else rnd.choice(reps), 0 if rnd.random() < 0.18 else rnd.randint(20, 200) * 1000))
    buyers = [k for k in custs if rnd.random() < 0.8]
    for o in range(10100, 10426):
        ordered = day(rnd, 2003, 2005)
        c.execute("INSERT INTO orders VALUES (?,?,?,?,?,?,?)",
                  (o, ordered, ordered, None if rnd.random() < 0.05 else ordered, rnd.choice(["Shipped"] * 9 + ["Cancelled", "On Hold", "Resolved"]),
                   None if rnd.random() < 0.7 else word(rnd, 8), rnd.choice(buyers)))
        for n, pc in enumerate(rnd.sample(codes, rnd.randint(1, 17)), 1):
            c.execute("INSERT INTO orderdetails VALUES (?,?,?,?,?)", (o, pc, rnd.randint(6, 97), round(rnd.uniform(26, 215), 2), n))
    for k in buyers:
        for _ in range(rnd.randint(1, 4)):
            c.execute("INSERT OR IGNORE INTO payments VALUES (?,?,?,?)",
                      (k, "".join(rnd.choice(string.ascii_uppercase) for _ in range(2)) + str(rnd.randint(100000, 999999)), day(rnd, 2003, 2005),
                       round(rnd.uniform(600, 120000), 2)))
    c.commit()
    return c, [
        ("products", "productLine", "productlines", "productLine", False), ("employees", "reportsTo", "employees", "employeeNumber", False),
        ("employees", "officeCode", "offices", "officeCode", False), ("customers", "salesRepEmployeeNumber", "employees", "employeeNumber", False),
        ("orders", "customerNumber", "customers", "customerNumber", False), ("orderdetails", "orderNumber", "orders", "orderNumber", False),
        ("orderdetails", "productCode", "products", "productCode", False), ("payments", "customerNumber", "customers", "customerNumber", False),
    ]


def world(path):
    rnd = random.Random(24)
    c = sqlite3.connect(path)
    c.executescript("""
    CREATE TABLE country (Code CHAR(3) NOT NULL DEFAULT '', Name CHAR(52) NOT NULL DEFAULT '', Continent TEXT NOT NULL DEFAULT 'Asia',
        Region CHAR(26) NOT NULL DEFAULT '', SurfaceArea DECIMAL(10,2) NOT NULL DEFAULT 0.00, IndepYear SMALLINT DEFAULT NULL,
        Population INT NOT NULL DEFAULT 0, LifeExpectancy DECIMAL(3,1) DEFAULT NULL, GNP DECIMAL(10,2) DEFAULT NULL,
        GNPOld DECIMAL(10,2) DEFAULT NULL, LocalName CHAR(45) NOT NULL DEFAULT '', GovernmentForm CHAR(45) NOT NULL DEFAULT '',
        HeadOfState CHAR(60) DEFAULT NULL, Capital INT DEFAULT NULL, Code2 CHAR(2) NOT NULL DEFAULT '', PRIMARY KEY (Code));
    CREATE TABLE city (ID INTEGER NOT NULL, Name CHAR(35) NOT NULL DEFAULT '', CountryCode CHAR(3) NOT NULL DEFAULT '',
        District CHAR(20) NOT NULL DEFAULT '', Population INT NOT NULL DEFAULT 0, PRIMARY KEY (ID),
        FOREIGN KEY (CountryCode) REFERENCES country (Code));
    CREATE TABLE countrylanguage (CountryCode CHAR(3) NOT NULL DEFAULT '', Language CHAR(30) NOT NULL DEFAULT '',
        IsOfficial TEXT NOT NULL DEFAULT 'F' CHECK (IsOfficial IN ('T', 'F')), Percentage DECIMAL(4,1) NOT NULL DEFAULT 0.0,
        PRIMARY KEY (CountryCode, Language), FOREIGN KEY (CountryCode) REFERENCES country (Code));
    """)
    codes, code2 = set(), set()
    while len(codes) < 239:
        codes.add("".join(rnd.choice(string.ascii_uppercase) for _ in range(3)))
    codes = sorted(codes)
    for k in codes:
        while True:
            two = k[:2] if k[:2] not in code2 and rnd.random() < 0.8 else "".join(rnd.choice(string.ascii_uppercase) for _ in range(2))
            if two not in code2:
                code2.add(two)
                break
    code2 = dict(zip(codes, sorted(code2)))
    continents = ["Asia", "Europe", "North America", "Africa", "Oceania", "Antarctica", "South America"]
    languages = ["English", "Spanish", "French", "Arabic", "Portuguese", "German", "Swahili", "Hindi", "Russian", "Malay", "Chinese",
                 "Dutch", "Italian", "Turkish", "Persian", "Bengali", "Tamil", "Quechua", "Zulu", "Creole"]
    city_id, capitals = 0, {}
    for k in codes:
        n = 0 if rnd.random() < 0.03 else rnd.randint(1, 40)
        first = None
        for _ in range(n):
            city_id += 1
            first = first or city_id
            c.execute("INSERT INTO city VALUES (?,?,?,?,?)", (city_id, word(rnd).title() + rnd.choice(["", " City", "burg", "ville"]), k,
                                                              word(rnd).title(), rnd.randint(1000, 10_000_000)))
        capitals[k] = None if first is None else rnd.randint(first, city_id)
        for lang in rnd.sample(languages, rnd.randint(1, 8)):
            c.execute("INSERT INTO countrylanguage VALUES (?,?,?,?)", (k, lang, rnd.choice("TF"), round(rnd.uniform(0, 100), 1)))
    for k in codes:
        c.execute("INSERT INTO country VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                  (k, word(rnd).title() + rnd.choice(["", "ia", "land", "stan"]), rnd.choice(continents), word(rnd, 2).title(),
                   round(rnd.uniform(1, 17_000_000), 2), None if rnd.random() < 0.2 else rnd.randint(-1523, 1994), rnd.randint(0, 1_300_000_000),
                   None if rnd.random() < 0.1 else round(rnd.uniform(37, 84), 1), round(rnd.uniform(0, 8_000_000), 2),
                   None if rnd.random() < 0.3 else round(rnd.uniform(0, 8_000_000), 2), word(rnd).title(),
                   rnd.choice(["Republic", "Constitutional Monarchy", "Federal Republic", "Dependent Territory of the UK"]),
                   f"{rnd.choice(FIRST)} {rnd.choice(LAST)}", capitals[k], code2[k]))
    c.commit()
    return c, [
        ("city", "CountryCode", "country", "Code", False), ("countrylanguage", "CountryCode", "country", "Code", False),
        ("country", "Capital", "city", "ID", False),
    ]


def adventureworkslt(path):
    rnd = random.Random(25)
    c = sqlite3.connect(path)
    c.executescript("""
    CREATE TABLE Customer (CustomerID INT NOT NULL PRIMARY KEY, NameStyle BIT NOT NULL DEFAULT 0, Title NVARCHAR(8), FirstName NVARCHAR(50) NOT NULL,
        MiddleName NVARCHAR(50), LastName NVARCHAR(50) NOT NULL, Suffix NVARCHAR(10), CompanyName NVARCHAR(128), SalesPerson NVARCHAR(256),
        EmailAddress NVARCHAR(50), Phone NVARCHAR(25), PasswordHash VARCHAR(128) NOT NULL, PasswordSalt VARCHAR(10) NOT NULL,
        rowguid UNIQUEIDENTIFIER NOT NULL UNIQUE, ModifiedDate DATETIME NOT NULL);
    CREATE TABLE Address (AddressID INT NOT NULL PRIMARY KEY, AddressLine1 NVARCHAR(60) NOT NULL, AddressLine2 NVARCHAR(60), City NVARCHAR(30) NOT NULL,
        StateProvince NVARCHAR(50) NOT NULL, CountryRegion NVARCHAR(50) NOT NULL, PostalCode NVARCHAR(15) NOT NULL,
        rowguid UNIQUEIDENTIFIER NOT NULL UNIQUE, ModifiedDate DATETIME NOT NULL);
    CREATE TABLE CustomerAddress (CustomerID INT NOT NULL REFERENCES Customer (CustomerID), AddressID INT NOT NULL REFERENCES Address (AddressID),
        AddressType NVARCHAR(50) NOT NULL, rowguid UNIQUEIDENTIFIER NOT NULL UNIQUE, ModifiedDate DATETIME NOT NULL, PRIMARY KEY (CustomerID, AddressID));
    CREATE TABLE ProductCategory (ProductCategoryID INT NOT NULL PRIMARY KEY, ParentProductCategoryID INT REFERENCES ProductCategory (ProductCategoryID),
        Name NVARCHAR(50) NOT NULL UNIQUE, rowguid UNIQUEIDENTIFIER NOT NULL UNIQUE, ModifiedDate DATETIME NOT NULL);
    CREATE TABLE ProductModel (ProductModelID INT NOT NULL PRIMARY KEY, Name NVARCHAR(50) NOT NULL UNIQUE, CatalogDescription XML,
        rowguid UNIQUEIDENTIFIER NOT NULL UNIQUE, ModifiedDate DATETIME NOT NULL);
    CREATE TABLE ProductDescription (ProductDescriptionID INT NOT NULL PRIMARY KEY, Description NVARCHAR(400) NOT NULL,
        rowguid UNIQUEIDENTIFIER NOT NULL UNIQUE, ModifiedDate DATETIME NOT NULL);
    CREATE TABLE ProductModelProductDescription (ProductModelID INT NOT NULL REFERENCES ProductModel (ProductModelID),
        ProductDescriptionID INT NOT NULL REFERENCES ProductDescription (ProductDescriptionID), Culture NCHAR(6) NOT NULL,
        rowguid UNIQUEIDENTIFIER NOT NULL UNIQUE, ModifiedDate DATETIME NOT NULL, PRIMARY KEY (ProductModelID, ProductDescriptionID, Culture));
    CREATE TABLE Product (ProductID INT NOT NULL PRIMARY KEY, Name NVARCHAR(50) NOT NULL UNIQUE, ProductNumber NVARCHAR(25) NOT NULL UNIQUE,
        Color NVARCHAR(15), StandardCost MONEY NOT NULL, ListPrice MONEY NOT NULL, Size NVARCHAR(5), Weight DECIMAL(8,2),
        ProductCategoryID INT REFERENCES ProductCategory (ProductCategoryID), ProductModelID INT REFERENCES ProductModel (ProductModelID),
        SellStartDate DATETIME NOT NULL, SellEndDate DATETIME, DiscontinuedDate DATETIME, ThumbNailPhoto VARBINARY(8000),
        ThumbnailPhotoFileName NVARCHAR(50), rowguid UNIQUEIDENTIFIER NOT NULL UNIQUE, ModifiedDate DATETIME NOT NULL);
    CREATE TABLE SalesOrderHeader (SalesOrderID INT NOT NULL PRIMARY KEY, RevisionNumber TINYINT NOT NULL DEFAULT 0, OrderDate DATETIME NOT NULL,
        DueDate DATETIME NOT NULL, ShipDate DATETIME, Status TINYINT NOT NULL DEFAULT 1, OnlineOrderFlag BIT NOT NULL DEFAULT 1,
        SalesOrderNumber NVARCHAR(25) NOT NULL UNIQUE, PurchaseOrderNumber NVARCHAR(25), AccountNumber NVARCHAR(15),
        CustomerID INT NOT NULL REFERENCES Customer (CustomerID), ShipToAddressID INT REFERENCES Address (AddressID),
        BillToAddressID INT REFERENCES Address (AddressID), ShipMethod NVARCHAR(50) NOT NULL, CreditCardApprovalCode VARCHAR(15),
        SubTotal MONEY NOT NULL DEFAULT 0, TaxAmt MONEY NOT NULL DEFAULT 0, Freight MONEY NOT NULL DEFAULT 0, TotalDue MONEY NOT NULL,
        Comment NVARCHAR(4000), rowguid UNIQUEIDENTIFIER NOT NULL UNIQUE, ModifiedDate DATETIME NOT NULL);
    CREATE TABLE SalesOrderDetail (SalesOrderID INT NOT NULL REFERENCES SalesOrderHeader (SalesOrderID), SalesOrderDetailID INT NOT NULL,
        OrderQty SMALLINT NOT NULL, ProductID INT NOT NULL REFERENCES Product (ProductID), UnitPrice MONEY NOT NULL,
        UnitPriceDiscount MONEY NOT NULL DEFAULT 0, LineTotal NUMERIC(38,6) NOT NULL, rowguid UNIQUEIDENTIFIER NOT NULL UNIQUE,
        ModifiedDate DATETIME NOT NULL, PRIMARY KEY (SalesOrderID, SalesOrderDetailID));
    """)

    def guid():
        return "%08X-%04X-%04X-%04X-%012X" % (rnd.getrandbits(32), rnd.getrandbits(16), rnd.getrandbits(16), rnd.getrandbits(16), rnd.getrandbits(48))

    mod = "2008-06-01 00:00:00"
    customers = sorted(rnd.sample(range(1, 30119), 847))
    for k in customers:
        first, last = rnd.choice(FIRST), rnd.choice(LAST)
        c.execute("INSERT INTO Customer VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                  (k, 0, rnd.choice(["Mr.", "Ms.", None]), first, rnd.choice(["A.", "J.", None]), last, None,
                   f"{word(rnd).title()} {rnd.choice(['Bikes', 'Cycles', 'Sports', 'Store'])}", f"adventure-works\\{rnd.choice(FIRST).lower()}0",
                   f"{first.lower()}{k}@adventure-works.com", f"{rnd.randint(100, 999)}-555-0{rnd.randint(100, 999)}", astr_hex(rnd, 44), astr_hex(rnd, 8), guid(), mod))
    addresses = sorted(rnd.sample(range(9, 1106), 450))
    for a in addresses:
        c.execute("INSERT INTO Address VALUES (?,?,?,?,?,?,?,?,?)",
                  (a, f"{rnd.randint(1, 9999)} {word(rnd).title()} Blvd.", None, word(rnd).title(), rnd.choice(["Washington", "Ontario", "England", "California"]),
                   rnd.choice(["United States", "Canada", "United Kingdom"]), f"{rnd.randint(10000, 99999)}", guid(), mod))
    pairs = set()
    while len(pairs) < 417:
        pairs.add((rnd.choice(customers), rnd.choice(addresses)))
    for k, a in sorted(pairs):
        c.execute("INSERT INTO CustomerAddress VALUES (?,?,?,?,?)", (k, a, rnd.choice(["Main Office", "Main Office", "Shipping"]), guid(), mod))
    for k in range(1, 42):
        parent = None if k <= 4 else rnd.randint(1, 4)
        c.execute("INSERT INTO ProductCategory VALUES (?,?,?,?,?)", (k, parent, f"{word(rnd).title()} {k}", guid(), mod))
    for k in range(1, 129):
        c.execute("INSERT INTO ProductModel VALUES (?,?,?,?,?)", (k, f"{word(rnd, 2).title()} {k}", None, guid(), mod))
    descs = sorted(rnd.sample(range(3, 2011), 762))
    for k in descs:
        c.execute("INSERT INTO ProductDescription VALUES (?,?,?,?)", (k, word(rnd, 10), guid(), mod))
    cultures = ["en    ", "fr    ", "ar    ", "th    ", "he    ", "zh-cht"]
    for i, k in enumerate(descs):
        c.execute("INSERT INTO ProductModelProductDescription VALUES (?,?,?,?,?)", (1 + i // 6 % 128, k, cultures[i % 6], guid(), mod))
    products = list(range(680, 1000))
    rnd.shuffle(products)
    products = sorted(products[:295])
    for p in products:
        cost = round(rnd.uniform(1, 2000), 4)
        c.execute("INSERT INTO Product VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                  (p, f"{word(rnd, 2).title()} {p}", f"{rnd.choice(['BK', 'FR', 'HL', 'SO'])}-{p:04d}", rnd.choice(["Black", "Red", "Silver", None]),
                   cost, round(cost * 1.6, 2), rnd.choice(["S", "M", "L", "58", None]), None if rnd.random() < 0.4 else round(rnd.uniform(100, 9000), 2),
                   rnd.randint(5, 41), None if rnd.random() < 0.05 else rnd.randint(1, 128), "2005-07-01 00:00:00", None, None, None, "no_image.gif", guid(), mod))
    buyers = rnd.sample(sorted({k for k, _ in pairs}), 32)
    ship_of = {}
    for k, a in sorted(pairs):
        ship_of.setdefault(k, a)
    for n, o in enumerate(range(71774, 71947)):
        if rnd.random() < 0.81:
            continue
        k = rnd.choice(buyers)
        sub = round(rnd.uniform(100, 100000), 4)
        c.execute("INSERT INTO SalesOrderHeader VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                  (o, 2, "2008-06-01 00:00:00", "2008-06-13 00:00:00", "2008-06-08 00:00:00", 5, 0, f"SO{o}", f"PO{rnd.randint(10**9, 10**10)}",
                   f"10-4020-{rnd.randint(0, 999999):06d}", k, ship_of[k], ship_of[k], "CARGO TRANSPORT 5", None, sub, round(sub * 0.08, 4),
                   round(sub * 0.025, 4), round(sub * 1.105, 4), None, guid(), mod))
        for d in range(rnd.randint(1, 30)):
            qty, price = rnd.randint(1, 20), round(rnd.uniform(2, 1500), 4)
            c.execute("INSERT INTO SalesOrderDetail VALUES (?,?,?,?,?,?,?,?,?)",
                      (o, 110000 + n * 40 + d, qty, rnd.choice(products), price, 0, round(qty * price, 6), guid(), mod))
    c.commit()
    return c, [
        ("CustomerAddress", "CustomerID", "Customer", "CustomerID", False), ("CustomerAddress", "AddressID", "Address", "AddressID", False),
        ("ProductCategory", "ParentProductCategoryID", "ProductCategory", "ProductCategoryID", False),
        ("ProductModelProductDescription", "ProductModelID", "ProductModel", "ProductModelID", False),
        ("ProductModelProductDescription", "ProductDescriptionID", "ProductDescription", "ProductDescriptionID", False),
        ("Product", "ProductCategoryID", "ProductCategory", "ProductCategoryID", False), ("Product", "ProductModelID", "ProductModel", "ProductModelID", False),
        ("SalesOrderHeader", "CustomerID", "Customer", "CustomerID", False), ("SalesOrderHeader", "ShipToAddressID", "Address", "AddressID", False),
        ("SalesOrderHeader", "BillToAddressID", "Address", "AddressID", False), ("SalesOrderDetail", "SalesOrderID", "SalesOrderHeader", "SalesOrderID", False),
        ("SalesOrderDetail", "ProductID", "Product", "ProductID", False),
    ]


def astr_hex(rnd, n):
    return "".join(rnd.choice("0123456789ABCDEF") for _ in range(n))


def stackoverflow(path):
    rnd = random.Random(26)
    c = sqlite3.connect(path)
    c.executescript("""
    CREATE TABLE Users (Id INT NOT NULL PRIMARY KEY, AboutMe NVARCHAR, Age INT, CreationDate DATETIME NOT NULL, DisplayName NVARCHAR(40) NOT NULL,
        DownVotes INT NOT NULL, EmailHash NVARCHAR(40), LastAccessDate DATETIME NOT NULL, Location NVARCHAR(100), Reputation INT NOT NULL,
        UpVotes INT NOT NULL, Views INT NOT NULL, WebsiteUrl NVARCHAR(200), AccountId INT);
    CREATE TABLE PostTypes (Id INT NOT NULL PRIMARY KEY, Type NVARCHAR(50) NOT NULL);
    CREATE TABLE VoteTypes (Id INT NOT NULL PRIMARY KEY, Name VARCHAR(50) NOT NULL);
    CREATE TABLE LinkTypes (Id INT NOT NULL PRIMARY KEY, Type VARCHAR(50) NOT NULL);
    CREATE TABLE Posts (Id INT NOT NULL PRIMARY KEY, AcceptedAnswerId INT, AnswerCount INT, Body NVARCHAR NOT NULL, ClosedDate DATETIME,
        CommentCount INT, CommunityOwnedDate DATETIME, CreationDate DATETIME NOT NULL, FavoriteCount INT, LastActivityDate DATETIME NOT NULL,
        LastEditDate DATETIME, LastEditorDisplayName NVARCHAR(40), LastEditorUserId INT, OwnerUserId INT, ParentId INT NOT NULL,
        PostTypeId INT NOT NULL, Score INT NOT NULL, Tags NVARCHAR(150), Title NVARCHAR(250), ViewCount INT NOT NULL);
    CREATE TABLE Comments (Id INT NOT NULL PRIMARY KEY, CreationDate DATETIME NOT NULL, PostId INT NOT NULL, Score INT, Text NVARCHAR(700) NOT NULL,
        UserId INT);
    CREATE TABLE Votes (Id INT NOT NULL PRIMARY KEY, PostId INT NOT NULL, UserId INT, BountyAmount INT, VoteTypeId INT NOT NULL,
        CreationDate DATETIME NOT NULL);
    CREATE TABLE Badges (Id INT NOT NULL PRIMARY KEY, Name NVARCHAR(40) NOT NULL, UserId INT NOT NULL, Date DATETIME NOT NULL);
    CREATE TABLE PostLinks (Id INT NOT NULL PRIMARY KEY, CreationDate DATETIME NOT NULL, PostId INT NOT NULL, RelatedPostId INT NOT NULL,
        LinkTypeId INT NOT NULL);
    CREATE TABLE Tags (Id INT NOT NULL PRIMARY KEY, TagName NVARCHAR(35), Count INT NOT NULL, ExcerptPostId INT, WikiPostId INT);
    """)
    for k, t in enumerate(["Question", "Answer", "Wiki", "TagWikiExcerpt", "TagWiki", "ModeratorNomination", "WikiPlaceholder", "PrivilegeWiki"], 1):
        c.execute("INSERT INTO PostTypes VALUES (?,?)", (k, t))
    vote_names = ["AcceptedByOriginator", "UpMod", "DownMod", "Offensive", "Favorite", "Close", "Reopen", "BountyStart", "BountyClose", "Deletion",
                  "Undeletion", "Spam", "ModeratorReview", "ApproveEditSuggestion", "InformModerator"]
    for k, t in enumerate(vote_names, 1):
        c.execute("INSERT INTO VoteTypes VALUES (?,?)", (k, t))
    c.execute("INSERT INTO LinkTypes VALUES (1, 'Linked')")
    c.execute("INSERT INTO LinkTypes VALUES (3, 'Duplicate')")

    def when(lo=2008, hi=2013):
        return f"{rnd.randint(lo, hi)}-{rnd.randint(1, 12):02d}-{rnd.randint(1, 28):02d} {rnd.randint(0, 23):02d}:{rnd.randint(0, 59):02d}:00"

    users = [-1] + list(range(1, 2001))
    for u in users:
        c.execute("INSERT INTO Users VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                  (u, None if rnd.random() < 0.6 else word(rnd, 9), None, when(), "Community" if u < 0 else f"{rnd.choice(FIRST)}{u}", rnd.randint(0, 50),
                   None, when(2013, 2014), None if rnd.random() < 0.5 else word(rnd).title(), 1 if u < 0 else rnd.randint(1, 90000), rnd.randint(0, 900),
                   rnd.randint(0, 5000), None, None if u < 0 else rnd.randint(1, 4_000_000)))
    posts, questions, answers = 0, [], []
    rows = []
    for q in range(3000):
        posts += 1
        qid = posts
        questions.append(qid)
        owner = rnd.choice(users[1:]) if rnd.random() < 0.97 else None
        kids = []
        for _ in range(rnd.choice([0, 1, 1, 2, 3])):
            posts += 1
            kids.append(posts)
            answers.append(posts)
        editor = rnd.choice(users) if rnd.random() < 0.3 else None
        rows.append((qid, rnd.choice(kids) if kids and rnd.random() < 0.5 else None, len(kids), word(rnd, 30), None, rnd.randint(0, 9), None, when(),
                     rnd.randint(0, 30), when(), when() if editor else None, None, editor, owner, 0, 1, rnd.randint(-3, 300),
                     "<" + rnd.choice(WORDS) + ">", word(rnd, 6).title(), rnd.randint(10, 90000)))
        for a in kids:
            editor = rnd.choice(users) if rnd.random() < 0.2 else None
            rows.append((a, None, None, word(rnd, 25), None, rnd.randint(0, 5), None, when(), None, when(), when() if editor else None, None, editor,
                         rnd.choice(users[1:]), qid, 2, rnd.randint(-2, 200), None, None, 0))
    tags = []
    for k in range(1, 121):
        posts += 1
        excerpt = posts
        posts += 1
        wiki = posts
        for pid, typ in ((excerpt, 4), (wiki, 5)):
            rows.append((pid, None, None, word(rnd, 12), None, 0, when(), when(), None, when(), None, None, None, -1, 0, typ, 0, None, None, 0))
        tags.append((k, f"{rnd.choice(WORDS)}-{k}", rnd.randint(1, 3000), excerpt if rnd.random() < 0.9 else None, wiki if rnd.random() < 0.9 else None))
    c.executemany("INSERT INTO Posts VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", rows)
    c.executemany("INSERT INTO Tags VALUES (?,?,?,?,?)", tags)
    allposts = questions + answers
    for k in range(1, 9001):
        c.execute("INSERT INTO Comments VALUES (?,?,?,?,?,?)", (k, when(), rnd.choice(allposts), rnd.randint(0, 20), word(rnd, 15), rnd.choice(users[1:]) if rnd.random() < 0.98 else None))
    for k in range(1, 20001):
        vt = rnd.choice([2] * 10 + [3, 1, 5, 6, 8, 9, 10])
        c.execute("INSERT INTO Votes VALUES (?,?,?,?,?,?)", (k, rnd.choice(allposts), rnd.choice(users[1:]) if vt in (5, 8, 9) else None,
                                                             rnd.choice([50, 100, 200]) if vt in (8, 9) else None, vt, when()[:10] + " 00:00:00"))
    for k in range(1, 6001):
        c.execute("INSERT INTO Badges VALUES (?,?,?,?)", (k, rnd.choice(["Teacher", "Student", "Editor", "Supporter", "Scholar", "Critic"]), rnd.choice(users[1:]), when()))
    for k in range(1, 801):
        a, b = rnd.sample(questions, 2)
        c.execute("INSERT INTO PostLinks VALUES (?,?,?,?,?)", (k * 7, when(), a, b, rnd.choice([1, 1, 1, 3])))
    c.commit()
    return c, [
        ("Posts", "AcceptedAnswerId", "Posts", "Id", False), ("Posts", "ParentId", "Posts", "Id", True), ("Posts", "OwnerUserId", "Users", "Id", False),
        ("Posts", "LastEditorUserId", "Users", "Id", False), ("Posts", "PostTypeId", "PostTypes", "Id", False),
        ("Comments", "PostId", "Posts", "Id", False), ("Comments", "UserId", "Users", "Id", False),
        ("Votes", "PostId", "Posts", "Id", False), ("Votes", "UserId", "Users", "Id", False), ("Votes", "VoteTypeId", "VoteTypes", "Id", False),
        ("Badges", "UserId", "Users", "Id", False), ("PostLinks", "PostId", "Posts", "Id", False), ("PostLinks", "RelatedPostId", "Posts", "Id", False),
        ("PostLinks", "LinkTypeId", "LinkTypes", "Id", False), ("Tags", "ExcerptPostId", "Posts", "Id", False), ("Tags", "WikiPostId", "Posts", "Id", False),
    ]


if __name__ == "__main__":
    sets = [("tpcc", tpcc), ("employees", employees), ("classicmodels", classicmodels), ("world", world), ("adventureworkslt", adventureworkslt),
            ("stackoverflow", stackoverflow)]
    appsets.main(sets + [(name + "_lake", appsets.lake(make)) for name, make in sets])

#!/usr/bin/env python3
"""Builds relbench's naming-conventions set: six schemas in conventions the
other sets lack, written from their published DDL and filled with invented
data (Python's standard library only, fixed seeds). None was looked at while
relationship inference was written; each comes twice, as its DDL declares
its primary keys (its foreign keys are declared too, and relbench ignores
them) and as a lake holds it (`_lake`: the same rows, no key of any kind).

- scott: Oracle's SCOTT/TIGER demo, upper case, words glued and cut
  (EMP.DEPTNO -> DEPT.DEPTNO, EMP.MGR -> EMP.EMPNO), departments numbered
  10, 20, 30, 40, fourteen employees numbered from 7369.
- sh: Oracle's Sales History star: columns prefixed by an abbreviation of
  their table (CUST_, PROD_, PROMO_), a date as a dimension's key
  (TIMES.TIME_ID), a "no promotion" row (PROMO_ID 999), and level ids of
  hierarchies folded into the dimensions that no table keys
  (PROD_SUBCATEGORY_ID, COUNTRY_REGION_ID, CHANNEL_CLASS_ID).
- adventureworksdw: Microsoft's AdventureWorksDW: Dim and Fact prefixes,
  CamelCase surrogate keys ending in Key, dates keyed by yyyymmdd integers
  and played in three roles (OrderDateKey, DueDateKey, ShipDateKey ->
  DimDate.DateKey), alternate keys numbered like the surrogate keys,
  ParentEmployeeKey -> DimEmployee.
- wideworldimporters: Microsoft's WideWorldImporters (OLTP, schemas
  dropped from the names): roles glued before the entity
  (SalespersonPersonID, PrimaryContactPersonID, DeliveryCityID,
  BillToCustomerID, BackorderOrderID, UnitPackageID -> PackageTypes) and
  every table's LastEditedBy -> People.PersonID.
- odoo: Odoo's ORM tables: every key id, module prefixes on table names
  (res_partner, res_users, product_template, uom_uom), abbreviations
  (categ_id, product_tmpl_id, uom_po_id), roles after the entity
  (partner_invoice_id, partner_shipping_id), a column with no key suffix
  (sale_order_line.product_uom), and create_uid / write_uid -> res_users.
- datavault: a Data Vault 2.0 model of TPC-H's customers, orders, parts
  and suppliers as AutomateDV (dbtvault) builds it: upper case, MD5 hash
  keys as 32 hexadecimal characters ending in _HK, hubs, links (whose own
  key names both ends: CUSTOMER_ORDER_HK) and satellites keyed by
  (hash key, LOAD_DATE).

The truth is each schema's documented foreign keys, checked against the data
as shared/'s FK_CHECK.tsv is (a composite's columns comma-separated).

    python3 cmd/relbench/conventions/generate.py OUT_DIR
    go run ./cmd/relbench -datasets OUT_DIR -v
"""
import datetime
import hashlib
import os
import random
import sqlite3
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import appsets  # noqa: E402 (relbench's shared check and writer)

FIRST = ("Amara Bastian Chiara Dmitri Elif Farid Greta Hiro Ingrid Jonas Kalani Leila Mateo Nadia Oskar Priya Quentin "
         "Rosa Sven Tamsin Ulla Viktor Wen Ximena Yusuf Zora Anil Beatriz Cormac Dalia Emeka Fenna").split()
LAST = ("Abara Bergstrom Castellano Dvorak Eriksen Fontaine Gallagher Horvath Ivanova Jaramillo Kowalczyk Lindqvist "
        "Moreau Nakamura Okafor Petrovic Quispe Rasmussen Salonen Takahashi Umarov Vasquez Wojcik Xu Yilmaz Zeller").split()
WORDS = ("amber basalt cedar drift ember fjord glade heron isle jade kestrel loam marsh north oak prism quill reed "
         "slate thistle umber vale wren yew zinc").split()
CITIES = ("Arden Bellport Cresthaven Dunmore Eastwick Fairlow Glenrock Harrowgate Ivybridge Juniper Kingsmere Larkfield "
          "Millbrook Northvale Oakridge Pinecrest Queensbury Riverside Stonebridge Thornbury").split()


def word(rnd, n=1):
    return " ".join(rnd.choice(WORDS) for _ in range(n))


def name(rnd):
    return f"{rnd.choice(FIRST)} {rnd.choice(LAST)}"


def day(rnd, lo=2015, hi=2022):
    return datetime.date(rnd.randint(lo, hi), rnd.randint(1, 12), rnd.randint(1, 28))


def insert(c, table, rows):
    rows = list(rows)
    if rows:
        c.executemany(f'INSERT INTO "{table}" VALUES ({", ".join("?" * len(rows[0]))})', rows)


def scott(path):
    rnd = random.Random(31)
    c = sqlite3.connect(path)
    c.executescript("""
    CREATE TABLE DEPT (DEPTNO NUMBER(2) CONSTRAINT PK_DEPT PRIMARY KEY, DNAME VARCHAR2(14), LOC VARCHAR2(13));
    CREATE TABLE EMP (EMPNO NUMBER(4) CONSTRAINT PK_EMP PRIMARY KEY, ENAME VARCHAR2(10), JOB VARCHAR2(9), MGR NUMBER(4),
        HIREDATE DATE, SAL NUMBER(7,2), COMM NUMBER(7,2), DEPTNO NUMBER(2) CONSTRAINT FK_DEPTNO REFERENCES DEPT);
    CREATE TABLE BONUS (ENAME VARCHAR2(10), JOB VARCHAR2(9), SAL NUMBER, COMM NUMBER);
    CREATE TABLE SALGRADE (GRADE NUMBER, LOSAL NUMBER, HISAL NUMBER);
    """)
    insert(c, "DEPT", [(10, "ACCOUNTING", "NEW YORK"), (20, "RESEARCH", "DALLAS"), (30, "SALES", "CHICAGO"), (40, "OPERATIONS", "BOSTON")])
    # (job, manager's index, department): a president, three managers, their staff.
    plan = [("PRESIDENT", None, 10), ("MANAGER", 0, 30), ("MANAGER", 0, 10), ("MANAGER", 0, 20), ("ANALYST", 3, 20),
            ("ANALYST", 3, 20), ("CLERK", 4, 20), ("SALESMAN", 1, 30), ("SALESMAN", 1, 30), ("SALESMAN", 1, 30),
            ("SALESMAN", 1, 30), ("CLERK", 1, 30), ("CLERK", 5, 20), ("CLERK", 2, 10)]
    nos = sorted(rnd.sample(range(7369, 7935), len(plan)))
    rnd.shuffle(nos)
    emps = []
    for i, (job, boss, dept) in enumerate(plan):
        sal = {"PRESIDENT": 5000, "MANAGER": rnd.choice([2450, 2850, 2975]), "ANALYST": 3000}.get(job, rnd.choice([800, 950, 1100, 1250, 1300, 1500, 1600]))
        comm = rnd.choice([0, 300, 500, 1400]) if job == "SALESMAN" else None
        emps.append((nos[i], rnd.choice(LAST).upper()[:10], job, None if boss is None else nos[boss], day(rnd, 1980, 1983).isoformat(),
                     sal, comm, dept))
    insert(c, "EMP", sorted(emps))
    insert(c, "BONUS", [])
    insert(c, "SALGRADE", [(1, 700, 1200), (2, 1201, 1400), (3, 1401, 2000), (4, 2001, 3000), (5, 3001, 9999)])
    c.commit()
    return c, [("EMP", "MGR", "EMP", "EMPNO", False), ("EMP", "DEPTNO", "DEPT", "DEPTNO", False)]


def sh(path):
    rnd = random.Random(32)
    c = sqlite3.connect(path)
    c.executescript("""
    CREATE TABLE COUNTRIES (COUNTRY_ID NUMBER NOT NULL PRIMARY KEY, COUNTRY_ISO_CODE CHAR(2) NOT NULL, COUNTRY_NAME VARCHAR2(40) NOT NULL,
        COUNTRY_SUBREGION VARCHAR2(30) NOT NULL, COUNTRY_SUBREGION_ID NUMBER NOT NULL, COUNTRY_REGION VARCHAR2(20) NOT NULL,
        COUNTRY_REGION_ID NUMBER NOT NULL, COUNTRY_TOTAL VARCHAR2(11) NOT NULL, COUNTRY_TOTAL_ID NUMBER NOT NULL);
    CREATE TABLE CUSTOMERS (CUST_ID NUMBER NOT NULL PRIMARY KEY, CUST_FIRST_NAME VARCHAR2(20) NOT NULL, CUST_LAST_NAME VARCHAR2(40) NOT NULL,
        CUST_GENDER CHAR(1) NOT NULL, CUST_YEAR_OF_BIRTH NUMBER(4) NOT NULL, CUST_MARITAL_STATUS VARCHAR2(20),
        CUST_STREET_ADDRESS VARCHAR2(40) NOT NULL, CUST_POSTAL_CODE VARCHAR2(10) NOT NULL, CUST_CITY VARCHAR2(30) NOT NULL,
        CUST_CITY_ID NUMBER NOT NULL, CUST_STATE_PROVINCE VARCHAR2(40) NOT NULL, CUST_STATE_PROVINCE_ID NUMBER NOT NULL,
        COUNTRY_ID NUMBER NOT NULL REFERENCES COUNTRIES (COUNTRY_ID), CUST_MAIN_PHONE_NUMBER VARCHAR2(25) NOT NULL,
        CUST_INCOME_LEVEL VARCHAR2(30), CUST_CREDIT_LIMIT NUMBER, CUST_EMAIL VARCHAR2(50), CUST_TOTAL VARCHAR2(14) NOT NULL,
        CUST_TOTAL_ID NUMBER NOT NULL, CUST_SRC_ID NUMBER, CUST_EFF_FROM DATE, CUST_EFF_TO DATE, CUST_VALID VARCHAR2(1));
    CREATE TABLE PRODUCTS (PROD_ID NUMBER(6) NOT NULL PRIMARY KEY, PROD_NAME VARCHAR2(50) NOT NULL, PROD_DESC VARCHAR2(4000) NOT NULL,
        PROD_SUBCATEGORY VARCHAR2(50) NOT NULL, PROD_SUBCATEGORY_ID NUMBER NOT NULL, PROD_SUBCATEGORY_DESC VARCHAR2(2000) NOT NULL,
        PROD_CATEGORY VARCHAR2(50) NOT NULL, PROD_CATEGORY_ID NUMBER NOT NULL, PROD_CATEGORY_DESC VARCHAR2(2000) NOT NULL,
        PROD_WEIGHT_CLASS NUMBER(3) NOT NULL, PROD_UNIT_OF_MEASURE VARCHAR2(20), PROD_PACK_SIZE VARCHAR2(30) NOT NULL,
        SUPPLIER_ID NUMBER(6) NOT NULL, PROD_STATUS VARCHAR2(20) NOT NULL, PROD_LIST_PRICE NUMBER(8,2) NOT NULL,
        PROD_MIN_PRICE NUMBER(8,2) NOT NULL, PROD_TOTAL VARCHAR2(13) NOT NULL, PROD_TOTAL_ID NUMBER NOT NULL, PROD_SRC_ID NUMBER,
        PROD_EFF_FROM DATE, PROD_EFF_TO DATE, PROD_VALID VARCHAR2(1));
    CREATE TABLE CHANNELS (CHANNEL_ID NUMBER NOT NULL PRIMARY KEY, CHANNEL_DESC VARCHAR2(20) NOT NULL, CHANNEL_CLASS VARCHAR2(20) NOT NULL,
        CHANNEL_CLASS_ID NUMBER NOT NULL, CHANNEL_TOTAL VARCHAR2(13) NOT NULL, CHANNEL_TOTAL_ID NUMBER NOT NULL);
    CREATE TABLE PROMOTIONS (PROMO_ID NUMBER(6) NOT NULL PRIMARY KEY, PROMO_NAME VARCHAR2(30) NOT NULL, PROMO_SUBCATEGORY VARCHAR2(30) NOT NULL,
        PROMO_SUBCATEGORY_ID NUMBER NOT NULL, PROMO_CATEGORY VARCHAR2(30) NOT NULL, PROMO_CATEGORY_ID NUMBER NOT NULL,
        PROMO_COST NUMBER(10,2) NOT NULL, PROMO_BEGIN_DATE DATE NOT NULL, PROMO_END_DATE DATE NOT NULL, PROMO_TOTAL VARCHAR2(15) NOT NULL,
        PROMO_TOTAL_ID NUMBER NOT NULL);
    CREATE TABLE TIMES (TIME_ID DATE NOT NULL PRIMARY KEY, DAY_NAME VARCHAR2(9) NOT NULL, DAY_NUMBER_IN_WEEK NUMBER(1) NOT NULL,
        DAY_NUMBER_IN_MONTH NUMBER(2) NOT NULL, CALENDAR_WEEK_NUMBER NUMBER(2) NOT NULL, CALENDAR_MONTH_NUMBER NUMBER(2) NOT NULL,
        CALENDAR_MONTH_DESC VARCHAR2(8) NOT NULL, CALENDAR_MONTH_ID NUMBER NOT NULL, CALENDAR_QUARTER_NUMBER NUMBER(1) NOT NULL,
        CALENDAR_QUARTER_ID NUMBER NOT NULL, CALENDAR_YEAR NUMBER(4) NOT NULL, CALENDAR_YEAR_ID NUMBER NOT NULL);
    CREATE TABLE SALES (PROD_ID NUMBER NOT NULL REFERENCES PRODUCTS, CUST_ID NUMBER NOT NULL REFERENCES CUSTOMERS,
        TIME_ID DATE NOT NULL REFERENCES TIMES, CHANNEL_ID NUMBER NOT NULL REFERENCES CHANNELS,
        PROMO_ID NUMBER NOT NULL REFERENCES PROMOTIONS, QUANTITY_SOLD NUMBER(10,2) NOT NULL, AMOUNT_SOLD NUMBER(10,2) NOT NULL);
    CREATE TABLE COSTS (PROD_ID NUMBER NOT NULL REFERENCES PRODUCTS, TIME_ID DATE NOT NULL REFERENCES TIMES,
        PROMO_ID NUMBER NOT NULL REFERENCES PROMOTIONS, CHANNEL_ID NUMBER NOT NULL REFERENCES CHANNELS,
        UNIT_COST NUMBER(10,2) NOT NULL, UNIT_PRICE NUMBER(10,2) NOT NULL);
    """)
    regions = [("Americas", 52801, [("Northern America", 52797, ["US", "CA"]), ("Southern America", 52798, ["BR", "AR", "CL"])]),
               ("Europe", 52803, [("Western Europe", 52799, ["DE", "FR", "NL", "IT", "ES"]), ("Eastern Europe", 52795, ["PL"])]),
               ("Asia", 52802, [("Asia", 52793, ["JP", "SG", "CN", "IN"])]), ("Oceania", 52805, [("Australia", 52794, ["AU", "NZ"])])]
    countries = []
    cid = 52769
    for region, rid, subs in regions:
        for sub, sid, codes in subs:
            for code in codes:
                countries.append((cid, code, code + "land", sub, sid, region, rid, "World total", 52806))
                cid += 1
    insert(c, "COUNTRIES", countries)
    channels = [(2, "Partners", "Others", 14), (3, "Direct Sales", "Direct", 12), (4, "Internet", "Indirect", 13), (5, "Catalog", "Indirect", 13),
                (9, "Tele Sales", "Direct", 12)]
    insert(c, "CHANNELS", [(i, d, cl, clid, "Channel total", 1) for i, d, cl, clid in channels])
    promos = []
    for p in range(33, 33 + 120):
        b = day(rnd, 1998, 2001)
        cat = rnd.randint(0, 8)
        promos.append((p, f"{word(rnd)} promotion #{p}", word(rnd), 100 + cat * 10 + rnd.randint(0, 3), word(rnd), 100 + cat, rnd.randint(0, 100000),
                       b.isoformat(), (b + datetime.timedelta(days=rnd.randint(30, 120))).isoformat(), "Promotion total", 1))
    promos.append((999, "NO PROMOTION #", "NO PROMOTION", 999, "NO PROMOTION", 999, 0, "9999-01-01", "9999-01-01", "Promotion total", 1))
    insert(c, "PROMOTIONS", promos)
    times = []
    d0 = datetime.date(1998, 1, 1)
    for k in range(4 * 365 + 1):
        d = d0 + datetime.timedelta(days=k)
        q = (d.month - 1) // 3 + 1
        times.append((d.isoformat(), d.strftime("%A"), d.isoweekday(), d.day, d.isocalendar()[1], d.month, d.strftime("%Y-%m"),
                      1000 + (d.year - 1998) * 12 + d.month, q, 1700 + (d.year - 1998) * 4 + q, d.year, 1800 + d.year - 1998))
    insert(c, "TIMES", times)
    subs = [(2011 + k, 201 + k // 4) for k in range(21)]
    prods = []
    for p in range(13, 13 + 72):
        sub, cat = rnd.choice(subs)
        price = round(rnd.uniform(5, 1500), 2)
        prods.append((p, f"{word(rnd, 2).title()} {p}", word(rnd, 6), f"sub {sub}", sub, word(rnd, 3), f"cat {cat}", cat, word(rnd, 3),
                      1, "U", "P", 1, "STATUS", price, round(price * 0.9, 2), "TOTAL", 1, None, "1998-01-01", None, "A"))
    insert(c, "PRODUCTS", prods)
    custs = []
    byc = [x[0] for x in countries]
    for k in range(1, 1 + 1500):
        cust = 100 + k * 7 + rnd.randint(0, 6)
        city = rnd.randint(51000, 51400)
        custs.append((cust, rnd.choice(FIRST), rnd.choice(LAST), rnd.choice("MF"), rnd.randint(1925, 1990), rnd.choice(["single", "married", None]),
                      f"{rnd.randint(1, 999)} {word(rnd).title()} Street", f"{rnd.randint(10000, 99999)}", rnd.choice(CITIES), city,
                      word(rnd).title(), 52500 + city % 200, rnd.choice(byc), f"{rnd.randint(100, 999)}-{rnd.randint(100, 999)}-{rnd.randint(1000, 9999)}",
                      rnd.choice(["A: Below 30,000", "B: 30,000 - 49,999", "C: 50,000 - 69,999"]), rnd.choice([1500, 3000, 5000, 7000, 9000]),
                      f"{rnd.choice(FIRST).lower()}.{k}@company{rnd.randint(1, 40)}.example", "Customer total", 52772, None, "1998-01-01", None, "A"))
    insert(c, "CUSTOMERS", custs)
    prod_ids, cust_ids, days = [p[0] for p in prods], [x[0] for x in custs], [t[0] for t in times]
    promo_ids = [p[0] for p in promos]
    sales = []
    for _ in range(40000):
        promo = 999 if rnd.random() < 0.9 else rnd.choice(promo_ids)
        q = rnd.randint(1, 3)
        sales.append((rnd.choice(prod_ids), rnd.choice(cust_ids), rnd.choice(days), rnd.choice([2, 3, 4, 9]), promo, q, round(q * rnd.uniform(5, 1500), 2)))
    insert(c, "SALES", sales)
    costs = {}
    for p, _, t, ch, promo, _, _ in sales[:8000]:
        costs[(p, t, promo, ch)] = (p, t, promo, ch, round(rnd.uniform(5, 1000), 2), round(rnd.uniform(5, 1500), 2))
    insert(c, "COSTS", costs.values())
    c.commit()
    return c, [
        ("CUSTOMERS", "COUNTRY_ID", "COUNTRIES", "COUNTRY_ID", False),
        ("SALES", "PROD_ID", "PRODUCTS", "PROD_ID", False), ("SALES", "CUST_ID", "CUSTOMERS", "CUST_ID", False),
        ("SALES", "TIME_ID", "TIMES", "TIME_ID", False), ("SALES", "CHANNEL_ID", "CHANNELS", "CHANNEL_ID", False),
        ("SALES", "PROMO_ID", "PROMOTIONS", "PROMO_ID", False),
        ("COSTS", "PROD_ID", "PRODUCTS", "PROD_ID", False), ("COSTS", "TIME_ID", "TIMES", "TIME_ID", False),
        ("COSTS", "PROMO_ID", "PROMOTIONS", "PROMO_ID", False), ("COSTS", "CHANNEL_ID", "CHANNELS", "CHANNEL_ID", False),
    ]


def adventureworksdw(path):
    rnd = random.Random(33)
    c = sqlite3.connect(path)
    c.executescript("""
    CREATE TABLE DimDate (DateKey INT NOT NULL PRIMARY KEY, FullDateAlternateKey DATE NOT NULL, DayNumberOfWeek TINYINT NOT NULL,
        EnglishDayNameOfWeek NVARCHAR(10) NOT NULL, DayNumberOfMonth TINYINT NOT NULL, DayNumberOfYear SMALLINT NOT NULL,
        WeekNumberOfYear TINYINT NOT NULL, EnglishMonthName NVARCHAR(10) NOT NULL, MonthNumberOfYear TINYINT NOT NULL,
        CalendarQuarter TINYINT NOT NULL, CalendarYear SMALLINT NOT NULL, CalendarSemester TINYINT NOT NULL,
        FiscalQuarter TINYINT NOT NULL, FiscalYear SMALLINT NOT NULL, FiscalSemester TINYINT NOT NULL);
    CREATE TABLE DimSalesTerritory (SalesTerritoryKey INT NOT NULL PRIMARY KEY, SalesTerritoryAlternateKey INT,
        SalesTerritoryRegion NVARCHAR(50) NOT NULL, SalesTerritoryCountry NVARCHAR(50) NOT NULL, SalesTerritoryGroup NVARCHAR(50));
    CREATE TABLE DimGeography (GeographyKey INT NOT NULL PRIMARY KEY, City NVARCHAR(30), StateProvinceCode NVARCHAR(3),
        StateProvinceName NVARCHAR(50), CountryRegionCode NVARCHAR(3), EnglishCountryRegionName NVARCHAR(50), PostalCode NVARCHAR(15),
        SalesTerritoryKey INT REFERENCES DimSalesTerritory (SalesTerritoryKey), IpAddressLocator NVARCHAR(15));
    CREATE TABLE DimCustomer (CustomerKey INT NOT NULL PRIMARY KEY, GeographyKey INT REFERENCES DimGeography (GeographyKey),
        CustomerAlternateKey NVARCHAR(15) NOT NULL UNIQUE, Title NVARCHAR(8), FirstName NVARCHAR(50), LastName NVARCHAR(50),
        NameStyle BIT, BirthDate DATE, MaritalStatus NCHAR(1), Gender NVARCHAR(1), EmailAddress NVARCHAR(50), YearlyIncome MONEY,
        TotalChildren TINYINT, NumberChildrenAtHome TINYINT, EnglishEducation NVARCHAR(40), HouseOwnerFlag NCHAR(1),
        NumberCarsOwned TINYINT, AddressLine1 NVARCHAR(120), Phone NVARCHAR(20), DateFirstPurchase DATE, CommuteDistance NVARCHAR(15));
    CREATE TABLE DimProductCategory (ProductCategoryKey INT NOT NULL PRIMARY KEY, ProductCategoryAlternateKey INT UNIQUE,
        EnglishProductCategoryName NVARCHAR(50) NOT NULL);
    CREATE TABLE DimProductSubcategory (ProductSubcategoryKey INT NOT NULL PRIMARY KEY, ProductSubcategoryAlternateKey INT UNIQUE,
        EnglishProductSubcategoryName NVARCHAR(50) NOT NULL, ProductCategoryKey INT REFERENCES DimProductCategory (ProductCategoryKey));
    CREATE TABLE DimProduct (ProductKey INT NOT NULL PRIMARY KEY, ProductAlternateKey NVARCHAR(25),
        ProductSubcategoryKey INT REFERENCES DimProductSubcategory (ProductSubcategoryKey), WeightUnitMeasureCode NCHAR(3),
        SizeUnitMeasureCode NCHAR(3), EnglishProductName NVARCHAR(50) NOT NULL, StandardCost MONEY, FinishedGoodsFlag BIT NOT NULL,
        Color NVARCHAR(15) NOT NULL, SafetyStockLevel SMALLINT, ReorderPoint SMALLINT, ListPrice MONEY, Size NVARCHAR(50),
        DaysToManufacture INT, ProductLine NCHAR(2), DealerPrice MONEY, Class NCHAR(2), Style NCHAR(2), ModelName NVARCHAR(50),
        StartDate DATETIME, EndDate DATETIME, Status NVARCHAR(7));
    CREATE TABLE DimPromotion (PromotionKey INT NOT NULL PRIMARY KEY, PromotionAlternateKey INT, EnglishPromotionName NVARCHAR(255),
        DiscountPct FLOAT, EnglishPromotionType NVARCHAR(50), EnglishPromotionCategory NVARCHAR(50), StartDate DATETIME NOT NULL,
        EndDate DATETIME, MinQty INT, MaxQty INT);
    CREATE TABLE DimCurrency (CurrencyKey INT NOT NULL PRIMARY KEY, CurrencyAlternateKey NCHAR(3) NOT NULL UNIQUE,
        CurrencyName NVARCHAR(50) NOT NULL);
    CREATE TABLE DimEmployee (EmployeeKey INT NOT NULL PRIMARY KEY, ParentEmployeeKey INT REFERENCES DimEmployee (EmployeeKey),
        EmployeeNationalIDAlternateKey NVARCHAR(15), ParentEmployeeNationalIDAlternateKey NVARCHAR(15),
        SalesTerritoryKey INT REFERENCES DimSalesTerritory (SalesTerritoryKey), FirstName NVARCHAR(50) NOT NULL,
        LastName NVARCHAR(50) NOT NULL, Title NVARCHAR(50), HireDate DATE, BirthDate DATE, LoginID NVARCHAR(256),
        EmailAddress NVARCHAR(50), Phone NVARCHAR(25), MaritalStatus NCHAR(1), Gender NCHAR(1), PayFrequency TINYINT,
        BaseRate MONEY, VacationHours SMALLINT, SickLeaveHours SMALLINT, CurrentFlag BIT NOT NULL, SalesPersonFlag BIT NOT NULL,
        DepartmentName NVARCHAR(50), StartDate DATE, EndDate DATE, Status NVARCHAR(50));
    CREATE TABLE DimReseller (ResellerKey INT NOT NULL PRIMARY KEY, GeographyKey INT REFERENCES DimGeography (GeographyKey),
        ResellerAlternateKey NVARCHAR(15) UNIQUE, Phone NVARCHAR(25), BusinessType VARCHAR(20) NOT NULL, ResellerName NVARCHAR(50) NOT NULL,
        NumberEmployees INT, OrderFrequency CHAR(1), OrderMonth TINYINT, FirstOrderYear INT, LastOrderYear INT, ProductLine NVARCHAR(50),
        AddressLine1 NVARCHAR(60), AnnualSales MONEY, MinPaymentType TINYINT, MinPaymentAmount MONEY, AnnualRevenue MONEY, YearOpened INT);
    CREATE TABLE FactInternetSales (ProductKey INT NOT NULL REFERENCES DimProduct (ProductKey),
        OrderDateKey INT NOT NULL REFERENCES DimDate (DateKey), DueDateKey INT NOT NULL REFERENCES DimDate (DateKey),
        ShipDateKey INT NOT NULL REFERENCES DimDate (DateKey), CustomerKey INT NOT NULL REFERENCES DimCustomer (CustomerKey),
        PromotionKey INT NOT NULL REFERENCES DimPromotion (PromotionKey), CurrencyKey INT NOT NULL REFERENCES DimCurrency (CurrencyKey),
        SalesTerritoryKey INT NOT NULL REFERENCES DimSalesTerritory (SalesTerritoryKey), SalesOrderNumber NVARCHAR(20) NOT NULL,
        SalesOrderLineNumber TINYINT NOT NULL, RevisionNumber TINYINT NOT NULL, OrderQuantity SMALLINT NOT NULL, UnitPrice MONEY NOT NULL,
        ExtendedAmount MONEY NOT NULL, UnitPriceDiscountPct FLOAT NOT NULL, DiscountAmount FLOAT NOT NULL, ProductStandardCost MONEY NOT NULL,
        TotalProductCost MONEY NOT NULL, SalesAmount MONEY NOT NULL, TaxAmt MONEY NOT NULL, Freight MONEY NOT NULL,
        CarrierTrackingNumber NVARCHAR(25), CustomerPONumber NVARCHAR(25), OrderDate DATETIME, DueDate DATETIME, ShipDate DATETIME,
        PRIMARY KEY (SalesOrderNumber, SalesOrderLineNumber));
    CREATE TABLE FactResellerSales (ProductKey INT NOT NULL REFERENCES DimProduct (ProductKey),
        OrderDateKey INT NOT NULL REFERENCES DimDate (DateKey), DueDateKey INT NOT NULL REFERENCES DimDate (DateKey),
        ShipDateKey INT NOT NULL REFERENCES DimDate (DateKey), ResellerKey INT NOT NULL REFERENCES DimReseller (ResellerKey),
        EmployeeKey INT NOT NULL REFERENCES DimEmployee (EmployeeKey), PromotionKey INT NOT NULL REFERENCES DimPromotion (PromotionKey),
        CurrencyKey INT NOT NULL REFERENCES DimCurrency (CurrencyKey),
        SalesTerritoryKey INT NOT NULL REFERENCES DimSalesTerritory (SalesTerritoryKey), SalesOrderNumber NVARCHAR(20) NOT NULL,
        SalesOrderLineNumber TINYINT NOT NULL, RevisionNumber TINYINT, OrderQuantity SMALLINT, UnitPrice MONEY, ExtendedAmount MONEY,
        UnitPriceDiscountPct FLOAT, DiscountAmount FLOAT, ProductStandardCost MONEY, TotalProductCost MONEY, SalesAmount MONEY,
        TaxAmt MONEY, Freight MONEY, CarrierTrackingNumber NVARCHAR(25), CustomerPONumber NVARCHAR(25), OrderDate DATETIME,
        DueDate DATETIME, ShipDate DATETIME, PRIMARY KEY (SalesOrderNumber, SalesOrderLineNumber));
    CREATE TABLE FactCurrencyRate (CurrencyKey INT NOT NULL REFERENCES DimCurrency (CurrencyKey),
        DateKey INT NOT NULL REFERENCES DimDate (DateKey), AverageRate FLOAT NOT NULL, EndOfDayRate FLOAT NOT NULL, Date DATETIME,
        PRIMARY KEY (CurrencyKey, DateKey));
    """)
    dates = []
    d0 = datetime.date(2010, 12, 29)
    for k in range(3 * 365 + 5):
        d = d0 + datetime.timedelta(days=k)
        q = (d.month - 1) // 3 + 1
        fy = d.year + (1 if d.month >= 7 else 0)
        dates.append((int(d.strftime("%Y%m%d")), d.isoformat(), d.isoweekday() % 7 + 1, d.strftime("%A"), d.day, d.timetuple().tm_yday,
                      int(d.strftime("%U")) + 1, d.strftime("%B"), d.month, q, d.year, 1 if q <= 2 else 2, (q + 1) % 4 + 1, fy,
                      1 if (q + 1) % 4 + 1 <= 2 else 2))
    insert(c, "DimDate", dates)
    terr = [("Northwest", "United States", "North America"), ("Northeast", "United States", "North America"),
            ("Central", "United States", "North America"), ("Southwest", "United States", "North America"),
            ("Southeast", "United States", "North America"), ("Canada", "Canada", "North America"), ("France", "France", "Europe"),
            ("Germany", "Germany", "Europe"), ("Australia", "Australia", "Pacific"), ("United Kingdom", "United Kingdom", "Europe"),
            ("NA", "NA", "NA")]
    insert(c, "DimSalesTerritory", [(k, k if k < 11 else 0, *t) for k, t in enumerate(terr, 1)])
    geos = []
    for g in range(1, 656):
        t = rnd.randint(1, 10)
        geos.append((g, rnd.choice(CITIES), rnd.choice(["WA", "CA", "BC", "NSW", "HH", "75", "ENG"]), word(rnd).title(),
                     rnd.choice(["US", "CA", "FR", "DE", "AU", "GB"]), terr[t - 1][1], f"{rnd.randint(1000, 99999)}", t,
                     f"198.51.{rnd.randint(0, 255)}.{rnd.randint(1, 254)}"))
    insert(c, "DimGeography", geos)
    custs = []
    for k in range(11000, 11000 + 2500):
        custs.append((k, rnd.randint(1, 655), f"AW{k:08d}", None, rnd.choice(FIRST), rnd.choice(LAST), 0, day(rnd, 1940, 1990).isoformat(),
                      rnd.choice("MS"), rnd.choice("MF"), f"{rnd.choice(FIRST).lower()}{k % 97}@adventure-works.example",
                      rnd.choice([10000, 30000, 60000, 90000, 130000]), rnd.randint(0, 5), rnd.randint(0, 3), "Bachelors", rnd.choice("01"),
                      rnd.randint(0, 4), f"{rnd.randint(1, 9999)} {word(rnd).title()} Dr", f"1 (11) 500 555-0{rnd.randint(100, 199)}",
                      day(rnd, 2011, 2013).isoformat(), rnd.choice(["0-1 Miles", "1-2 Miles", "2-5 Miles", "5-10 Miles", "10+ Miles"])))
    insert(c, "DimCustomer", custs)
    cats = ["Bikes", "Components", "Clothing", "Accessories"]
    insert(c, "DimProductCategory", [(k, k, n) for k, n in enumerate(cats, 1)])
    subs = [(k, k, f"{word(rnd).title()} {cats[(k - 1) % 4]}", (k - 1) % 4 + 1) for k in range(1, 38)]
    insert(c, "DimProductSubcategory", subs)
    prods = []
    for k in range(1, 607):
        sub = None if k <= 209 else rnd.randint(1, 37)
        cost = round(rnd.uniform(1, 2200), 4)
        prods.append((k, f"{rnd.choice(['AR', 'BA', 'BE', 'BK', 'FR', 'HL', 'LJ'])}-{rnd.randint(1000, 9999)}", sub, None, None,
                      f"{word(rnd, 2).title()} {k}", cost, 0 if sub is None else 1, rnd.choice(["Black", "Silver", "Red", "NA"]),
                      rnd.choice([4, 100, 500, 1000]), rnd.choice([3, 75, 375, 750]), round(cost * 1.8, 2) if sub else None, None,
                      rnd.randint(0, 4), rnd.choice(["R ", "M ", "T ", "S ", None]), round(cost * 1.1, 2) if sub else None, None, None,
                      word(rnd).title(), "2011-07-01 00:00:00", None, "Current"))
    insert(c, "DimProduct", prods)
    promos = [(k, k, f"{word(rnd).title()} discount", round(rnd.choice([0, 0.02, 0.05, 0.1, 0.15, 0.2, 0.35, 0.4, 0.5]), 2),
               rnd.choice(["No Discount", "Volume Discount", "Discontinued Product", "Seasonal Discount"]),
               rnd.choice(["No Discount", "Reseller", "Customer"]), "2011-05-31 00:00:00", "2014-11-30 00:00:00", 0, None)
              for k in range(1, 17)]
    insert(c, "DimPromotion", promos)
    codes = sorted({"".join(rnd.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ") for _ in range(3)) for _ in range(140)})[:105]
    insert(c, "DimCurrency", [(k, code, f"{word(rnd).title()} {code}") for k, code in enumerate(codes, 1)])
    emps = []
    for k in range(1, 297):
        boss = None if k == 112 else rnd.choice([112] + [x for x in range(1, min(k, 60)) if x != 112] or [112])
        emps.append((k, boss, f"{rnd.randint(10000000, 999999999)}", None, rnd.randint(1, 11) if k % 10 == 0 else 11, rnd.choice(FIRST),
                     rnd.choice(LAST), word(rnd).title(), day(rnd, 2006, 2012).isoformat(), day(rnd, 1950, 1990).isoformat(),
                     f"adventure-works\\emp{k}", f"emp{k}@adventure-works.example", f"{rnd.randint(100, 999)}-555-0{rnd.randint(100, 199)}",
                     rnd.choice("MS"), rnd.choice("MF"), rnd.choice([1, 2]), round(rnd.uniform(9, 125), 4), rnd.randint(0, 99),
                     rnd.randint(20, 69), 1, 1 if k % 10 == 0 else 0, word(rnd).title(), day(rnd, 2006, 2012).isoformat(), None, "Current"))
    byk = {e[0]: e for e in emps}
    emps = [e[:3] + (None if e[1] is None else byk[e[1]][2],) + e[4:] for e in emps]
    insert(c, "DimEmployee", emps)
    resellers = []
    for k in range(1, 702):
        resellers.append((k, rnd.randint(1, 655), f"AW{k:08d}", f"{rnd.randint(100, 999)}-555-0{rnd.randint(100, 199)}",
                          rnd.choice(["Value Added Reseller", "Specialty Bike Shop", "Warehouse"]), f"{word(rnd, 2).title()} Bikes",
                          rnd.randint(2, 100), rnd.choice("AQS"), rnd.randint(1, 12), rnd.randint(2011, 2013), rnd.randint(2012, 2014),
                          rnd.choice(["Road", "Mountain", "Touring"]), f"{rnd.randint(1, 9999)} {word(rnd).title()} Ave",
                          rnd.choice([300000, 800000, 1500000, 3000000]), rnd.choice([1, 2, 3]), rnd.choice([300, 600, 800]),
                          rnd.choice([30000, 80000, 150000, 300000]), rnd.randint(1970, 2005)))
    insert(c, "DimReseller", resellers)
    finished = [p[0] for p in prods if p[2] is not None]
    sellers = [e[0] for e in emps if e[20] == 1]
    order_days = [d[0] for d in dates[:-20]]

    def fact(n, start, reseller):
        rows = []
        for o in range(start, start + n):
            od = rnd.randrange(len(order_days))
            cur = rnd.choice([100, 100, 100, 6, 19, 29, 39, 98])
            terr_key = rnd.randint(1, 10)
            for line in range(1, rnd.randint(1, 4) + 1):
                qty = rnd.randint(1, 4) if not reseller else rnd.randint(1, 20)
                price = round(rnd.uniform(2, 3500), 4)
                amount = round(qty * price, 4)
                head = (rnd.choice(finished), order_days[od], dates[od + 12][0], dates[od + 7][0])
                who = (rnd.randint(1, 701), rnd.choice(sellers)) if reseller else (rnd.randint(11000, 13499),)
                rows.append(head + who + (rnd.choice([1, 1, 1, 2, 13, 14]), cur, terr_key, f"SO{o}", line, 1, qty, price, amount, 0.0, 0.0,
                                          round(price * 0.6, 4), round(price * 0.6 * qty, 4), amount, round(amount * 0.08, 4),
                                          round(amount * 0.025, 4), None, None, dates[od][1], dates[od + 12][1], dates[od + 7][1]))
        return rows
    insert(c, "FactInternetSales", fact(9000, 43697, False))
    insert(c, "FactResellerSales", fact(2500, 43659 + 60000, True))
    rates = []
    for cur in [6, 19, 29, 39, 98, 100]:
        for d in dates[::3]:
            r = round(rnd.uniform(0.5, 2.0), 4)
            rates.append((cur, d[0], r, r, d[1]))
    insert(c, "FactCurrencyRate", rates)
    c.commit()
    facts = []
    for f, who in (("FactInternetSales", [("CustomerKey", "DimCustomer")]),
                   ("FactResellerSales", [("ResellerKey", "DimReseller"), ("EmployeeKey", "DimEmployee")])):
        facts += [(f, "ProductKey", "DimProduct", "ProductKey", False)]
        facts += [(f, k, "DimDate", "DateKey", False) for k in ("OrderDateKey", "DueDateKey", "ShipDateKey")]
        facts += [(f, col, dim, col, False) for col, dim in who]
        facts += [(f, k + "Key", "Dim" + k, k + "Key", False) for k in ("Promotion", "Currency", "SalesTerritory")]
    return c, [
        ("DimGeography", "SalesTerritoryKey", "DimSalesTerritory", "SalesTerritoryKey", False),
        ("DimCustomer", "GeographyKey", "DimGeography", "GeographyKey", False),
        ("DimProductSubcategory", "ProductCategoryKey", "DimProductCategory", "ProductCategoryKey", False),
        ("DimProduct", "ProductSubcategoryKey", "DimProductSubcategory", "ProductSubcategoryKey", False),
        ("DimEmployee", "ParentEmployeeKey", "DimEmployee", "EmployeeKey", False),
        ("DimEmployee", "SalesTerritoryKey", "DimSalesTerritory", "SalesTerritoryKey", False),
        ("DimReseller", "GeographyKey", "DimGeography", "GeographyKey", False),
        ("FactCurrencyRate", "CurrencyKey", "DimCurrency", "CurrencyKey", False),
        ("FactCurrencyRate", "DateKey", "DimDate", "DateKey", False),
    ] + facts


def wideworldimporters(path):
    rnd = random.Random(34)
    c = sqlite3.connect(path)
    edited = "LastEditedBy INT NOT NULL REFERENCES People (PersonID)"
    c.executescript(f"""
    CREATE TABLE People (PersonID INT NOT NULL PRIMARY KEY, FullName NVARCHAR(50) NOT NULL, PreferredName NVARCHAR(50) NOT NULL,
        SearchName NVARCHAR(101) NOT NULL, IsPermittedToLogon BIT NOT NULL, LogonName NVARCHAR(50), IsExternalLogonProvider BIT NOT NULL,
        IsSystemUser BIT NOT NULL, IsEmployee BIT NOT NULL, IsSalesperson BIT NOT NULL, PhoneNumber NVARCHAR(20), FaxNumber NVARCHAR(20),
        EmailAddress NVARCHAR(256), {edited}, ValidFrom DATETIME2 NOT NULL, ValidTo DATETIME2 NOT NULL);
    CREATE TABLE Countries (CountryID INT NOT NULL PRIMARY KEY, CountryName NVARCHAR(60) NOT NULL, FormalName NVARCHAR(60) NOT NULL,
        IsoAlpha3Code NVARCHAR(3), IsoNumericCode INT, CountryType NVARCHAR(20), LatestRecordedPopulation BIGINT, Continent NVARCHAR(30) NOT NULL,
        Region NVARCHAR(30) NOT NULL, Subregion NVARCHAR(30) NOT NULL, {edited});
    CREATE TABLE StateProvinces (StateProvinceID INT NOT NULL PRIMARY KEY, StateProvinceCode NVARCHAR(5) NOT NULL,
        StateProvinceName NVARCHAR(50) NOT NULL, CountryID INT NOT NULL REFERENCES Countries (CountryID), SalesTerritory NVARCHAR(50) NOT NULL,
        LatestRecordedPopulation BIGINT, {edited});
    CREATE TABLE Cities (CityID INT NOT NULL PRIMARY KEY, CityName NVARCHAR(50) NOT NULL,
        StateProvinceID INT NOT NULL REFERENCES StateProvinces (StateProvinceID), LatestRecordedPopulation BIGINT, {edited});
    CREATE TABLE DeliveryMethods (DeliveryMethodID INT NOT NULL PRIMARY KEY, DeliveryMethodName NVARCHAR(50) NOT NULL, {edited});
    CREATE TABLE CustomerCategories (CustomerCategoryID INT NOT NULL PRIMARY KEY, CustomerCategoryName NVARCHAR(50) NOT NULL, {edited});
    CREATE TABLE BuyingGroups (BuyingGroupID INT NOT NULL PRIMARY KEY, BuyingGroupName NVARCHAR(50) NOT NULL, {edited});
    CREATE TABLE Customers (CustomerID INT NOT NULL PRIMARY KEY, CustomerName NVARCHAR(100) NOT NULL,
        BillToCustomerID INT NOT NULL REFERENCES Customers (CustomerID), CustomerCategoryID INT NOT NULL REFERENCES CustomerCategories,
        BuyingGroupID INT REFERENCES BuyingGroups, PrimaryContactPersonID INT NOT NULL REFERENCES People (PersonID),
        AlternateContactPersonID INT REFERENCES People (PersonID), DeliveryMethodID INT NOT NULL REFERENCES DeliveryMethods,
        DeliveryCityID INT NOT NULL REFERENCES Cities (CityID), PostalCityID INT NOT NULL REFERENCES Cities (CityID), CreditLimit DECIMAL(18,2),
        AccountOpenedDate DATE NOT NULL, StandardDiscountPercentage DECIMAL(18,3) NOT NULL, IsStatementSent BIT NOT NULL,
        IsOnCreditHold BIT NOT NULL, PaymentDays INT NOT NULL, PhoneNumber NVARCHAR(20) NOT NULL, FaxNumber NVARCHAR(20) NOT NULL,
        WebsiteURL NVARCHAR(256) NOT NULL, DeliveryAddressLine1 NVARCHAR(60) NOT NULL, DeliveryPostalCode NVARCHAR(10) NOT NULL,
        PostalAddressLine1 NVARCHAR(60) NOT NULL, PostalPostalCode NVARCHAR(10) NOT NULL, {edited});
    CREATE TABLE SupplierCategories (SupplierCategoryID INT NOT NULL PRIMARY KEY, SupplierCategoryName NVARCHAR(50) NOT NULL, {edited});
    CREATE TABLE Suppliers (SupplierID INT NOT NULL PRIMARY KEY, SupplierName NVARCHAR(100) NOT NULL,
        SupplierCategoryID INT NOT NULL REFERENCES SupplierCategories, PrimaryContactPersonID INT NOT NULL REFERENCES People (PersonID),
        AlternateContactPersonID INT NOT NULL REFERENCES People (PersonID), DeliveryMethodID INT REFERENCES DeliveryMethods,
        DeliveryCityID INT NOT NULL REFERENCES Cities (CityID), PostalCityID INT NOT NULL REFERENCES Cities (CityID),
        SupplierReference NVARCHAR(20), BankAccountName NVARCHAR(50), PaymentDays INT NOT NULL, PhoneNumber NVARCHAR(20) NOT NULL,
        WebsiteURL NVARCHAR(256) NOT NULL, {edited});
    CREATE TABLE Colors (ColorID INT NOT NULL PRIMARY KEY, ColorName NVARCHAR(20) NOT NULL, {edited});
    CREATE TABLE PackageTypes (PackageTypeID INT NOT NULL PRIMARY KEY, PackageTypeName NVARCHAR(50) NOT NULL, {edited});
    CREATE TABLE StockItems (StockItemID INT NOT NULL PRIMARY KEY, StockItemName NVARCHAR(100) NOT NULL,
        SupplierID INT NOT NULL REFERENCES Suppliers, ColorID INT REFERENCES Colors, UnitPackageID INT NOT NULL REFERENCES PackageTypes (PackageTypeID),
        OuterPackageID INT NOT NULL REFERENCES PackageTypes (PackageTypeID), Brand NVARCHAR(50), Size NVARCHAR(20), LeadTimeDays INT NOT NULL,
        QuantityPerOuter INT NOT NULL, IsChillerStock BIT NOT NULL, Barcode NVARCHAR(50), TaxRate DECIMAL(18,3) NOT NULL,
        UnitPrice DECIMAL(18,2) NOT NULL, RecommendedRetailPrice DECIMAL(18,2), TypicalWeightPerUnit DECIMAL(18,3) NOT NULL, {edited});
    CREATE TABLE Orders (OrderID INT NOT NULL PRIMARY KEY, CustomerID INT NOT NULL REFERENCES Customers,
        SalespersonPersonID INT NOT NULL REFERENCES People (PersonID), PickedByPersonID INT REFERENCES People (PersonID),
        ContactPersonID INT NOT NULL REFERENCES People (PersonID), BackorderOrderID INT REFERENCES Orders (OrderID), OrderDate DATE NOT NULL,
        ExpectedDeliveryDate DATE NOT NULL, CustomerPurchaseOrderNumber NVARCHAR(20), IsUndersupplyBackordered BIT NOT NULL,
        PickingCompletedWhen DATETIME2, {edited}, LastEditedWhen DATETIME2 NOT NULL);
    CREATE TABLE OrderLines (OrderLineID INT NOT NULL PRIMARY KEY, OrderID INT NOT NULL REFERENCES Orders,
        StockItemID INT NOT NULL REFERENCES StockItems, Description NVARCHAR(100) NOT NULL, PackageTypeID INT NOT NULL REFERENCES PackageTypes,
        Quantity INT NOT NULL, UnitPrice DECIMAL(18,2), TaxRate DECIMAL(18,3) NOT NULL, PickedQuantity INT NOT NULL,
        PickingCompletedWhen DATETIME2, {edited}, LastEditedWhen DATETIME2 NOT NULL);
    CREATE TABLE Invoices (InvoiceID INT NOT NULL PRIMARY KEY, CustomerID INT NOT NULL REFERENCES Customers,
        BillToCustomerID INT NOT NULL REFERENCES Customers (CustomerID), OrderID INT REFERENCES Orders,
        DeliveryMethodID INT NOT NULL REFERENCES DeliveryMethods, ContactPersonID INT NOT NULL REFERENCES People (PersonID),
        AccountsPersonID INT NOT NULL REFERENCES People (PersonID), SalespersonPersonID INT NOT NULL REFERENCES People (PersonID),
        PackedByPersonID INT NOT NULL REFERENCES People (PersonID), InvoiceDate DATE NOT NULL, CustomerPurchaseOrderNumber NVARCHAR(20),
        IsCreditNote BIT NOT NULL, TotalDryItems INT NOT NULL, TotalChillerItems INT NOT NULL, {edited}, LastEditedWhen DATETIME2 NOT NULL);
    """)
    stamp = "2013-01-01 00:00:00"
    # People: 1 is the data conversion, 2..21 employees (some salespeople), then customers' and suppliers' contacts.
    people = [(1, "Data Conversion Only", "Data Conversion Only", "Data Conversion Only", 0, "NO LOGON", 0, 0, 0, 0, None, None, None, 1,
               stamp, "9999-12-31 23:59:59")]
    for p in range(2, 22):
        n = name(rnd)
        people.append((p, n, n.split()[0], f"{n.split()[0]} {n}", 1, f"{n.split()[0].lower()}@wideworldimporters.example", 0, 1, 1,
                       1 if p % 3 == 0 else 0, f"(415) 555-0{rnd.randint(100, 199)}", f"(415) 555-0{rnd.randint(100, 199)}",
                       f"{n.split()[0].lower()}@wideworldimporters.example", 1, stamp, "9999-12-31 23:59:59"))
    employees = list(range(2, 22))
    salespeople = [p for p in employees if p % 3 == 0]
    contacts = list(range(1001, 1001 + 1300))
    for p in contacts:
        n = name(rnd)
        people.append((p, n, n.split()[0], f"{n.split()[0]} {n}", 0, "NO LOGON", 0, 0, 0, 0, f"(2{rnd.randint(10, 99)}) 555-0{rnd.randint(100, 199)}",
                       None, f"{n.split()[0].lower()}{p}@example.com", rnd.choice([1, 1, 1] + employees[:4]), stamp, "9999-12-31 23:59:59"))
    insert(c, "People", people)

    def editor():
        return 1 if rnd.random() < 0.8 else rnd.choice(employees)
    countries = [(k, f"{word(rnd).title()}ia", f"Republic of {word(rnd).title()}", f"{chr(64 + k)}{chr(70 + k % 20)}Q", 4 + k * 8, "UN Member State",
                  rnd.randint(10 ** 5, 10 ** 8), rnd.choice(["Europe", "Asia", "Africa", "North America"]), "Region", "Subregion", editor())
                 for k in range(1, 191)]
    insert(c, "Countries", countries)
    states = [(k, f"S{k}", f"{word(rnd).title()} State", 230 if k <= 53 else rnd.randint(1, 190), rnd.choice(["Plains", "Far West", "Mideast"]),
               rnd.randint(10 ** 5, 10 ** 7), editor()) for k in range(1, 54)]
    insert(c, "StateProvinces", states)
    insert(c, "Countries", [(230, "United States", "United States of America", "USA", 840, "UN Member State", 313973000, "North America",
                             "Americas", "Northern America", 1)])
    cities = [(k, rnd.choice(CITIES) + (f" {word(rnd).title()}" if rnd.random() < 0.7 else ""), rnd.randint(1, 53), rnd.randint(100, 10 ** 6), editor())
              for k in range(1, 3001)]
    insert(c, "Cities", cities)
    insert(c, "DeliveryMethods", [(k, m, 1) for k, m in enumerate(["Post", "Courier", "Delivery Van", "Customer Collect", "Chilled Van",
                                                                       "Customer Courier to Collect", "Road Freight", "Air Freight",
                                                                       "Refrigerated Road Freight", "Refrigerated Air Freight"], 1)])
    insert(c, "CustomerCategories", [(k, m, 1) for k, m in enumerate(["Agent", "Wholesaler", "Novelty Shop", "Supermarket", "Computer Store",
                                                                          "Gift Store", "Corporate", "General Retailer"], 1)])
    insert(c, "BuyingGroups", [(1, "Tailspin Toys", 1), (2, "Wingtip Toys", 1)])
    custs = []
    for k in range(1, 664):
        group = rnd.choice([1, 2]) if k <= 401 else None
        bill = 1 if group == 1 else (401 if group == 2 else k)
        city = rnd.randint(1, 3000)
        custs.append((k, f"{word(rnd).title()} {word(rnd).title()} Shop", bill, rnd.choice([3, 4, 5, 6, 7]) if group is None else rnd.choice([3, 4, 5]),
                      group, contacts[k - 1], contacts[663 + k] if group is not None and k < 600 else None, 3, city, city, 3000.00 if group else None,
                      day(rnd, 2013, 2013).isoformat(), 0.0, 0, 0, 7, "(308) 555-0100", "(308) 555-0101", f"http://www.{word(rnd)}.example",
                      f"Shop {rnd.randint(1, 99)}", f"{rnd.randint(90000, 99999)}", f"PO Box {rnd.randint(1, 9999)}", f"{rnd.randint(90000, 99999)}", 1))
    insert(c, "Customers", custs)
    insert(c, "SupplierCategories", [(k, m, 1) for k, m in enumerate(["Other Wholesaler", "Food Supplier", "Novelty Goods Supplier", "Toy Supplier",
                                                                          "Clothing Supplier", "Packaging Supplier", "Courier Services Supplier",
                                                                          "Financial Services Supplier", "Marketing Services Supplier"], 1)])
    sups = []
    for k in range(1, 14):
        city = rnd.randint(1, 3000)
        sups.append((k, f"{word(rnd).title()} Corp", rnd.randint(1, 9), contacts[1270 + k], contacts[1285 + k] if k < 14 else contacts[1299],
                     rnd.choice([None, 7, 8, 9, 10]), city, city, f"REF{rnd.randint(100, 999)}", f"{word(rnd).title()} Bank", 30,
                     "(847) 555-0100", f"http://www.{word(rnd)}.example", 1))
    insert(c, "Suppliers", sups)
    colors = ["Azure", "Beige", "Black", "Blue", "Charcoal", "Chartreuse", "Cyan", "Dark Brown", "Dark Green", "Fuchsia", "Gold", "Steel Gray",
              "Hot Pink", "Indigo", "Ivory", "Khaki", "Lavender", "Light Brown", "Light Green", "Maroon", "Mauve", "Navy Blue", "Olive",
              "Orange", "Plum", "Puce", "Purple", "Red", "Royal Blue", "Salmon", "Silver", "Tan", "Teal", "Wheat", "White", "Yellow"]
    insert(c, "Colors", [(k, m, 1) for k, m in enumerate(colors, 1)])
    packs = ["Bag", "Block", "Bottle", "Box", "Can", "Carton", "Each", "Kg", "Packet", "Pair", "Pallet", "Tray", "Tub", "Tube"]
    insert(c, "PackageTypes", [(k, m, 1) for k, m in enumerate(packs, 1)])
    items = []
    for k in range(1, 228):
        unit = rnd.choice([7, 7, 7, 9, 10, 1])
        items.append((k, f"{word(rnd, 2).title()} {k}", rnd.choice([1, 2, 4, 5, 7, 10, 12]), rnd.choice([None, None, 3, 4, 18, 28, 35, 36]), unit,
                      rnd.choice([7, 6, 6, 1]), None, rnd.choice([None, "S", "M", "L", "XL"]), rnd.choice([7, 12, 14, 20]), rnd.choice([1, 10, 12, 24]),
                      1 if k > 219 else 0, f"{rnd.randint(10 ** 12, 10 ** 13 - 1)}" if k % 4 else None, 15.0, round(rnd.uniform(1, 300), 2),
                      round(rnd.uniform(1, 450), 2), round(rnd.uniform(0.05, 20), 3), 1))
    insert(c, "StockItems", items)
    orders, lines, invoices = [], [], []
    line_id = 1
    for o in range(1, 6001):
        cust = custs[rnd.randrange(len(custs))]
        od = day(rnd, 2013, 2016)
        back = None if o < 50 or rnd.random() > 0.08 else rnd.randint(max(1, o - 40), o - 1)
        orders.append((o, cust[0], rnd.choice(salespeople), rnd.choice(employees) if rnd.random() < 0.9 else None, cust[5], back, od.isoformat(),
                       (od + datetime.timedelta(days=1)).isoformat(), f"{rnd.randint(10000, 99999)}", 1, f"{od.isoformat()} 11:00:00",
                       rnd.choice(employees), f"{od.isoformat()} 12:00:00"))
        for _ in range(rnd.randint(1, 5)):
            it = items[rnd.randrange(len(items))]
            lines.append((line_id, o, it[0], it[1], it[4], rnd.randint(1, 100), it[13], 15.0, rnd.randint(0, 100), f"{od.isoformat()} 11:00:00",
                          rnd.choice(employees), f"{od.isoformat()} 12:00:00"))
            line_id += 1
        if rnd.random() < 0.95:
            invoices.append((len(invoices) + 1, cust[0], cust[2], o if rnd.random() < 0.98 else None, 3, cust[5], cust[5], orders[-1][2],
                             rnd.choice(employees), (od + datetime.timedelta(days=1)).isoformat(), orders[-1][8], 0, rnd.randint(1, 20),
                             rnd.randint(0, 3), rnd.choice(employees), f"{od.isoformat()} 12:00:00"))
    insert(c, "Orders", orders)
    insert(c, "OrderLines", lines)
    insert(c, "Invoices", invoices)
    c.commit()
    fks = [
        ("StateProvinces", "CountryID", "Countries", "CountryID"), ("Cities", "StateProvinceID", "StateProvinces", "StateProvinceID"),
        ("Customers", "BillToCustomerID", "Customers", "CustomerID"), ("Customers", "CustomerCategoryID", "CustomerCategories", "CustomerCategoryID"),
        ("Customers", "BuyingGroupID", "BuyingGroups", "BuyingGroupID"), ("Customers", "PrimaryContactPersonID", "People", "PersonID"),
        ("Customers", "AlternateContactPersonID", "People", "PersonID"), ("Customers", "DeliveryMethodID", "DeliveryMethods", "DeliveryMethodID"),
        ("Customers", "DeliveryCityID", "Cities", "CityID"), ("Customers", "PostalCityID", "Cities", "CityID"),
        ("Suppliers", "SupplierCategoryID", "SupplierCategories", "SupplierCategoryID"), ("Suppliers", "PrimaryContactPersonID", "People", "PersonID"),
        ("Suppliers", "AlternateContactPersonID", "People", "PersonID"), ("Suppliers", "DeliveryMethodID", "DeliveryMethods", "DeliveryMethodID"),
        ("Suppliers", "DeliveryCityID", "Cities", "CityID"), ("Suppliers", "PostalCityID", "Cities", "CityID"),
        ("StockItems", "SupplierID", "Suppliers", "SupplierID"), ("StockItems", "ColorID", "Colors", "ColorID"),
        ("StockItems", "UnitPackageID", "PackageTypes", "PackageTypeID"), ("StockItems", "OuterPackageID", "PackageTypes", "PackageTypeID"),
        ("Orders", "CustomerID", "Customers", "CustomerID"), ("Orders", "SalespersonPersonID", "People", "PersonID"),
        ("Orders", "PickedByPersonID", "People", "PersonID"), ("Orders", "ContactPersonID", "People", "PersonID"),
        ("Orders", "BackorderOrderID", "Orders", "OrderID"),
        ("OrderLines", "OrderID", "Orders", "OrderID"), ("OrderLines", "StockItemID", "StockItems", "StockItemID"),
        ("OrderLines", "PackageTypeID", "PackageTypes", "PackageTypeID"),
        ("Invoices", "CustomerID", "Customers", "CustomerID"), ("Invoices", "BillToCustomerID", "Customers", "CustomerID"),
        ("Invoices", "OrderID", "Orders", "OrderID"), ("Invoices", "DeliveryMethodID", "DeliveryMethods", "DeliveryMethodID"),
        ("Invoices", "ContactPersonID", "People", "PersonID"), ("Invoices", "AccountsPersonID", "People", "PersonID"),
        ("Invoices", "SalespersonPersonID", "People", "PersonID"), ("Invoices", "PackedByPersonID", "People", "PersonID"),
    ]
    tables = ["People", "Countries", "StateProvinces", "Cities", "DeliveryMethods", "CustomerCategories", "BuyingGroups", "Customers",
              "SupplierCategories", "Suppliers", "Colors", "PackageTypes", "StockItems", "Orders", "OrderLines", "Invoices"]
    fks += [(t, "LastEditedBy", "People", "PersonID") for t in tables]
    return c, [f + (False,) for f in fks]


def odoo(path):
    rnd = random.Random(35)
    c = sqlite3.connect(path)
    audit = ("create_uid INTEGER REFERENCES res_users (id) ON DELETE SET NULL, create_date TIMESTAMP, "
             "write_uid INTEGER REFERENCES res_users (id) ON DELETE SET NULL, write_date TIMESTAMP")
    c.executescript(f"""
    CREATE TABLE res_currency (id INTEGER PRIMARY KEY, name VARCHAR NOT NULL UNIQUE, symbol VARCHAR NOT NULL, rounding NUMERIC,
        decimal_places INTEGER, active BOOLEAN, position VARCHAR, {audit});
    CREATE TABLE res_country (id INTEGER PRIMARY KEY, name JSONB NOT NULL, code VARCHAR(2) UNIQUE, currency_id INTEGER REFERENCES res_currency (id),
        phone_code INTEGER, {audit});
    CREATE TABLE res_country_state (id INTEGER PRIMARY KEY, country_id INTEGER NOT NULL REFERENCES res_country (id), name VARCHAR NOT NULL,
        code VARCHAR NOT NULL, {audit});
    CREATE TABLE res_partner (id INTEGER PRIMARY KEY, name VARCHAR, company_id INTEGER REFERENCES res_company (id), display_name VARCHAR,
        parent_id INTEGER REFERENCES res_partner (id), ref VARCHAR, lang VARCHAR, tz VARCHAR, user_id INTEGER REFERENCES res_users (id),
        vat VARCHAR, website VARCHAR, active BOOLEAN, type VARCHAR, street VARCHAR, zip VARCHAR, city VARCHAR,
        state_id INTEGER REFERENCES res_country_state (id), country_id INTEGER REFERENCES res_country (id), email VARCHAR, phone VARCHAR,
        is_company BOOLEAN, commercial_partner_id INTEGER REFERENCES res_partner (id), customer_rank INTEGER, supplier_rank INTEGER, {audit});
    CREATE TABLE res_company (id INTEGER PRIMARY KEY, name VARCHAR NOT NULL UNIQUE, partner_id INTEGER NOT NULL REFERENCES res_partner (id),
        currency_id INTEGER NOT NULL REFERENCES res_currency (id), parent_id INTEGER REFERENCES res_company (id), sequence INTEGER, {audit});
    CREATE TABLE res_users (id INTEGER PRIMARY KEY, company_id INTEGER NOT NULL REFERENCES res_company (id),
        partner_id INTEGER NOT NULL REFERENCES res_partner (id), active BOOLEAN, login VARCHAR NOT NULL UNIQUE, password VARCHAR,
        signature TEXT, share BOOLEAN, {audit});
    CREATE TABLE uom_category (id INTEGER PRIMARY KEY, name JSONB NOT NULL, {audit});
    CREATE TABLE uom_uom (id INTEGER PRIMARY KEY, name JSONB NOT NULL, category_id INTEGER NOT NULL REFERENCES uom_category (id),
        factor NUMERIC NOT NULL, rounding NUMERIC NOT NULL, active BOOLEAN, uom_type VARCHAR NOT NULL, {audit});
    CREATE TABLE product_category (id INTEGER PRIMARY KEY, name VARCHAR NOT NULL, complete_name VARCHAR,
        parent_id INTEGER REFERENCES product_category (id), parent_path VARCHAR, {audit});
    CREATE TABLE product_template (id INTEGER PRIMARY KEY, name JSONB NOT NULL, sequence INTEGER, description JSONB, type VARCHAR NOT NULL,
        categ_id INTEGER NOT NULL REFERENCES product_category (id), list_price NUMERIC, volume NUMERIC, weight NUMERIC, sale_ok BOOLEAN,
        purchase_ok BOOLEAN, uom_id INTEGER NOT NULL REFERENCES uom_uom (id), uom_po_id INTEGER NOT NULL REFERENCES uom_uom (id),
        company_id INTEGER REFERENCES res_company (id), active BOOLEAN, default_code VARCHAR, {audit});
    CREATE TABLE product_product (id INTEGER PRIMARY KEY, default_code VARCHAR, active BOOLEAN,
        product_tmpl_id INTEGER NOT NULL REFERENCES product_template (id), barcode VARCHAR UNIQUE, weight NUMERIC, volume NUMERIC, {audit});
    CREATE TABLE product_pricelist (id INTEGER PRIMARY KEY, name JSONB NOT NULL, active BOOLEAN, sequence INTEGER,
        currency_id INTEGER NOT NULL REFERENCES res_currency (id), company_id INTEGER REFERENCES res_company (id), {audit});
    CREATE TABLE sale_order (id INTEGER PRIMARY KEY, name VARCHAR NOT NULL, state VARCHAR, date_order TIMESTAMP NOT NULL,
        partner_id INTEGER NOT NULL REFERENCES res_partner (id), partner_invoice_id INTEGER NOT NULL REFERENCES res_partner (id),
        partner_shipping_id INTEGER NOT NULL REFERENCES res_partner (id), pricelist_id INTEGER REFERENCES product_pricelist (id),
        currency_id INTEGER REFERENCES res_currency (id), user_id INTEGER REFERENCES res_users (id),
        company_id INTEGER NOT NULL REFERENCES res_company (id), amount_untaxed NUMERIC, amount_tax NUMERIC, amount_total NUMERIC,
        client_order_ref VARCHAR, origin VARCHAR, {audit});
    CREATE TABLE sale_order_line (id INTEGER PRIMARY KEY, order_id INTEGER NOT NULL REFERENCES sale_order (id) ON DELETE CASCADE,
        sequence INTEGER, company_id INTEGER REFERENCES res_company (id), currency_id INTEGER REFERENCES res_currency (id),
        order_partner_id INTEGER REFERENCES res_partner (id), salesman_id INTEGER REFERENCES res_users (id), state VARCHAR,
        name TEXT NOT NULL, product_id INTEGER REFERENCES product_product (id), product_uom INTEGER REFERENCES uom_uom (id),
        product_uom_qty NUMERIC NOT NULL, price_unit NUMERIC NOT NULL, discount NUMERIC, price_subtotal NUMERIC, price_total NUMERIC,
        qty_delivered NUMERIC, qty_invoiced NUMERIC, {audit});
    """)
    now = "2024-03-01 09:00:00"
    users = list(range(1, 9))

    def aud():
        return (rnd.choice([1, 2, 2, 2] + users[2:]), now, rnd.choice([1, 2, 2] + users[2:]), now)
    cur = [(1, "EUR", "€", 0.01, 2, 1, "after"), (2, "USD", "$", 0.01, 2, 1, "before"), (3, "GBP", "£", 0.01, 2, 1, "before"),
           (4, "JPY", "¥", 1, 0, 0, "after"), (5, "CHF", "CHF", 0.01, 2, 0, "after")]
    insert(c, "res_currency", [r + (1, now, 1, now) for r in cur])
    ctry = [(k, f'{{"en_US": "{word(rnd).title()}land"}}', f"{chr(65 + k // 26)}{chr(65 + k % 26)}", rnd.choice([1, 2, 3, 4, 5]), rnd.randint(1, 999))
            for k in range(1, 251)]
    insert(c, "res_country", [r + (1, now, 1, now) for r in ctry])
    states = [(k, rnd.randint(1, 250), f"{word(rnd).title()} State", f"S{k}") for k in range(1, 1101)]
    insert(c, "res_country_state", [r + (1, now, 1, now) for r in states])
    # Partners: 1 the main company, 2..9 the users' people, then customers and their contacts.
    parts = [(1, "My Company", 1, "My Company", None, None, "en_US", "Europe/Brussels", None, "BE0477472701", None, 1, "contact",
              "Main Street 1", "1000", "Brussels", None, 21, "info@company.example", "+32 2 000 00 00", 1, 1, 0, 0) + (1, now, 1, now)]
    for k in range(2, 10):
        parts.append((k, name(rnd), 1, None, None, None, "en_US", None, None, None, None, 1, "contact", None, None, None, None, None,
                      f"user{k}@company.example", None, 0, k, 0, 0) + (1, now, 1, now))
    companies = []
    for k in range(10, 410):
        parts.append((k, f"{word(rnd, 2).title()} Ltd", 1, None, None, f"C{k:05d}", "en_US", None, rnd.choice(users[1:] + [None]), None,
                      f"https://{word(rnd)}.example", 1, "contact", f"{rnd.randint(1, 200)} {word(rnd).title()} Road", f"{rnd.randint(1000, 99999)}",
                      rnd.choice(CITIES), rnd.randint(1, 1100) if rnd.random() < 0.6 else None, rnd.randint(1, 250), f"sales@{word(rnd)}{k}.example",
                      f"+1 555 {rnd.randint(100, 999)} {rnd.randint(1000, 9999)}", 1, k, rnd.randint(0, 5), rnd.randint(0, 2)) + aud())
        companies.append(k)
    k = 410
    for comp in companies:
        for _ in range(rnd.randint(0, 3)):
            parts.append((k, name(rnd), 1, None, comp, None, "en_US", None, None, None, None, 1, rnd.choice(["contact", "invoice", "delivery"]),
                          None, None, None, None, None, f"person{k}@example.com", None, 0, comp, 0, 0) + aud())
            k += 1
    insert(c, "res_partner", parts)
    insert(c, "res_company", [(1, "My Company", 1, 1, None, 10, 1, now, 1, now)])
    insert(c, "res_users", [(u, 1, u + 1, 1, "__system__" if u == 1 else f"user{u}", None, None, 0, 1, now, 1, now) for u in users])
    insert(c, "uom_category", [(k, f'{{"en_US": "{n}"}}', 1, now, 1, now) for k, n in enumerate(["Unit", "Weight", "Working Time", "Length", "Volume"], 1)])
    uoms = [(1, "Units", 1, 1.0, "reference"), (2, "Dozens", 1, 1 / 12, "bigger"), (3, "kg", 2, 1.0, "reference"), (4, "g", 2, 1000.0, "smaller"),
            (5, "Days", 3, 1.0, "reference"), (6, "Hours", 3, 8.0, "smaller"), (7, "m", 4, 1.0, "reference"), (8, "km", 4, 0.001, "bigger"),
            (9, "L", 5, 1.0, "reference"), (10, "t", 2, 0.001, "bigger"), (11, "lb", 2, 2.20462, "smaller"), (12, "cm", 4, 100.0, "smaller")]
    insert(c, "uom_uom", [(i, f'{{"en_US": "{n}"}}', cat, f, 0.01, 1, t, 1, now, 1, now) for i, n, cat, f, t in uoms])
    cats = [(1, "All", "All", None, "1/"), (2, "Saleable", "All / Saleable", 1, "1/2/"), (3, "Expenses", "All / Expenses", 1, "1/3/")]
    for k in range(4, 30):
        parent = rnd.choice([2, 2, 3] + list(range(4, k)))
        cats.append((k, word(rnd).title(), f"All / {word(rnd).title()}", parent, f"1/{parent}/{k}/"))
    insert(c, "product_category", [r + aud() for r in cats])
    tmpls, prods = [], []
    pid = 1
    for t in range(1, 601):
        uom = rnd.choice([1, 1, 1, 1, 3, 5, 9])
        tmpls.append((t, f'{{"en_US": "{word(rnd, 2).title()}"}}', 1, None, rnd.choice(["consu", "service", "product"]), rnd.randint(1, 29),
                      round(rnd.uniform(1, 900), 2), 0, 0, 1, 1, uom, uom if rnd.random() < 0.9 else 2, 1 if rnd.random() < 0.3 else None, 1,
                      f"E-COM{t:03d}") + aud())
        for v in range(rnd.choice([1, 1, 1, 2, 3])):
            prods.append((pid, f"E-COM{t:03d}-{v}", 1, t, f"{rnd.randint(10 ** 12, 10 ** 13 - 1)}", 0, 0) + aud())
            pid += 1
    insert(c, "product_template", tmpls)
    insert(c, "product_product", prods)
    insert(c, "product_pricelist", [(1, '{"en_US": "Public Pricelist"}', 1, 1, 1, None) + aud(), (2, '{"en_US": "USD"}', 1, 2, 2, 1) + aud(),
                                     (3, '{"en_US": "GBP"}', 1, 3, 3, 1) + aud()])
    orders, lines = [], []
    lid = 1
    contacts = {}
    for p in parts:
        if p[4] is not None:
            contacts.setdefault(p[4], []).append(p[0])
    for o in range(1, 4001):
        cust = rnd.choice(companies)
        inv = rnd.choice(contacts.get(cust, [cust]) + [cust])
        ship = rnd.choice(contacts.get(cust, [cust]) + [cust])
        pl = rnd.choice([1, 1, 1, 2, 3])
        seller = rnd.choice(users[1:])
        state = rnd.choice(["draft", "sent", "sale", "sale", "sale", "cancel"])
        total = 0
        for s in range(rnd.randint(1, 6)):
            pr = prods[rnd.randrange(len(prods))]
            q = rnd.randint(1, 20)
            price = round(rnd.uniform(1, 900), 2)
            total += q * price
            lines.append((lid, o, 10 * (s + 1), 1, pl, cust, seller, state, f"[{pr[1]}] {word(rnd, 2)}", pr[0],
                          tmpls[pr[3] - 1][11], q, price, 0, round(q * price, 2), round(q * price * 1.21, 2), q if state == "sale" else 0, 0) + aud())
            lid += 1
        orders.append((o, f"S{o:05d}", state, f"2024-{rnd.randint(1, 12):02d}-{rnd.randint(1, 28):02d} 10:00:00", cust, inv, ship, pl, pl, seller, 1,
                       round(total, 2), round(total * 0.21, 2), round(total * 1.21, 2), None, None) + aud())
    insert(c, "sale_order", orders)
    insert(c, "sale_order_line", lines)
    c.commit()
    fks = [
        ("res_country", "currency_id", "res_currency", "id"), ("res_country_state", "country_id", "res_country", "id"),
        ("res_partner", "company_id", "res_company", "id"), ("res_partner", "parent_id", "res_partner", "id"),
        ("res_partner", "user_id", "res_users", "id"), ("res_partner", "state_id", "res_country_state", "id"),
        ("res_partner", "country_id", "res_country", "id"), ("res_partner", "commercial_partner_id", "res_partner", "id"),
        ("res_company", "partner_id", "res_partner", "id"), ("res_company", "currency_id", "res_currency", "id"),
        ("res_company", "parent_id", "res_company", "id"),
        ("res_users", "company_id", "res_company", "id"), ("res_users", "partner_id", "res_partner", "id"),
        ("uom_uom", "category_id", "uom_category", "id"), ("product_category", "parent_id", "product_category", "id"),
        ("product_template", "categ_id", "product_category", "id"), ("product_template", "uom_id", "uom_uom", "id"),
        ("product_template", "uom_po_id", "uom_uom", "id"), ("product_template", "company_id", "res_company", "id"),
        ("product_product", "product_tmpl_id", "product_template", "id"),
        ("product_pricelist", "currency_id", "res_currency", "id"), ("product_pricelist", "company_id", "res_company", "id"),
        ("sale_order", "partner_id", "res_partner", "id"), ("sale_order", "partner_invoice_id", "res_partner", "id"),
        ("sale_order", "partner_shipping_id", "res_partner", "id"), ("sale_order", "pricelist_id", "product_pricelist", "id"),
        ("sale_order", "currency_id", "res_currency", "id"), ("sale_order", "user_id", "res_users", "id"),
        ("sale_order", "company_id", "res_company", "id"),
        ("sale_order_line", "order_id", "sale_order", "id"), ("sale_order_line", "company_id", "res_company", "id"),
        ("sale_order_line", "currency_id", "res_currency", "id"), ("sale_order_line", "order_partner_id", "res_partner", "id"),
        ("sale_order_line", "salesman_id", "res_users", "id"), ("sale_order_line", "product_id", "product_product", "id"),
        ("sale_order_line", "product_uom", "uom_uom", "id"),
    ]
    tables = ["res_currency", "res_country", "res_country_state", "res_partner", "res_company", "res_users", "uom_category", "uom_uom",
              "product_category", "product_template", "product_product", "product_pricelist", "sale_order", "sale_order_line"]
    fks += [(t, col, "res_users", "id") for t in tables for col in ("create_uid", "write_uid")]
    return c, [f + (False,) for f in fks]


def datavault(path):
    rnd = random.Random(36)
    c = sqlite3.connect(path)
    meta = "LOAD_DATE TIMESTAMP NOT NULL, RECORD_SOURCE VARCHAR(50) NOT NULL"
    c.executescript(f"""
    CREATE TABLE HUB_REGION (REGION_HK CHAR(32) NOT NULL PRIMARY KEY, REGION_ID INTEGER NOT NULL, {meta});
    CREATE TABLE HUB_NATION (NATION_HK CHAR(32) NOT NULL PRIMARY KEY, NATION_ID INTEGER NOT NULL, {meta});
    CREATE TABLE HUB_CUSTOMER (CUSTOMER_HK CHAR(32) NOT NULL PRIMARY KEY, CUSTOMER_ID INTEGER NOT NULL, {meta});
    CREATE TABLE HUB_ORDER (ORDER_HK CHAR(32) NOT NULL PRIMARY KEY, ORDER_ID INTEGER NOT NULL, {meta});
    CREATE TABLE HUB_PART (PART_HK CHAR(32) NOT NULL PRIMARY KEY, PART_ID INTEGER NOT NULL, {meta});
    CREATE TABLE HUB_SUPPLIER (SUPPLIER_HK CHAR(32) NOT NULL PRIMARY KEY, SUPPLIER_ID INTEGER NOT NULL, {meta});
    CREATE TABLE LINK_NATION_REGION (LINK_NATION_REGION_HK CHAR(32) NOT NULL PRIMARY KEY,
        NATION_HK CHAR(32) NOT NULL REFERENCES HUB_NATION, REGION_HK CHAR(32) NOT NULL REFERENCES HUB_REGION, {meta});
    CREATE TABLE LINK_CUSTOMER_NATION (LINK_CUSTOMER_NATION_HK CHAR(32) NOT NULL PRIMARY KEY,
        CUSTOMER_HK CHAR(32) NOT NULL REFERENCES HUB_CUSTOMER, NATION_HK CHAR(32) NOT NULL REFERENCES HUB_NATION, {meta});
    CREATE TABLE LINK_CUSTOMER_ORDER (LINK_CUSTOMER_ORDER_HK CHAR(32) NOT NULL PRIMARY KEY,
        CUSTOMER_HK CHAR(32) NOT NULL REFERENCES HUB_CUSTOMER, ORDER_HK CHAR(32) NOT NULL REFERENCES HUB_ORDER, {meta});
    CREATE TABLE LINK_INVENTORY (LINK_INVENTORY_HK CHAR(32) NOT NULL PRIMARY KEY,
        PART_HK CHAR(32) NOT NULL REFERENCES HUB_PART, SUPPLIER_HK CHAR(32) NOT NULL REFERENCES HUB_SUPPLIER, {meta});
    CREATE TABLE LINK_LINEITEM (LINK_LINEITEM_HK CHAR(32) NOT NULL PRIMARY KEY, ORDER_HK CHAR(32) NOT NULL REFERENCES HUB_ORDER,
        PART_HK CHAR(32) NOT NULL REFERENCES HUB_PART, SUPPLIER_HK CHAR(32) NOT NULL REFERENCES HUB_SUPPLIER, {meta});
    CREATE TABLE SAT_CUSTOMER_DETAILS (CUSTOMER_HK CHAR(32) NOT NULL REFERENCES HUB_CUSTOMER, HASHDIFF CHAR(32) NOT NULL,
        CUSTOMER_NAME VARCHAR(25), CUSTOMER_ADDRESS VARCHAR(40), CUSTOMER_PHONE CHAR(15), CUSTOMER_ACCBAL DECIMAL(15,2),
        CUSTOMER_MKTSEGMENT CHAR(10), EFFECTIVE_FROM DATE NOT NULL, {meta}, PRIMARY KEY (CUSTOMER_HK, LOAD_DATE));
    CREATE TABLE SAT_ORDER_DETAILS (ORDER_HK CHAR(32) NOT NULL REFERENCES HUB_ORDER, HASHDIFF CHAR(32) NOT NULL, ORDERSTATUS CHAR(1),
        TOTALPRICE DECIMAL(15,2), ORDERDATE DATE, ORDERPRIORITY CHAR(15), CLERK CHAR(15), SHIPPRIORITY INTEGER,
        EFFECTIVE_FROM DATE NOT NULL, {meta}, PRIMARY KEY (ORDER_HK, LOAD_DATE));
    CREATE TABLE SAT_PART_DETAILS (PART_HK CHAR(32) NOT NULL REFERENCES HUB_PART, HASHDIFF CHAR(32) NOT NULL, PART_NAME VARCHAR(55),
        PART_MFGR CHAR(25), PART_BRAND CHAR(10), PART_TYPE VARCHAR(25), PART_SIZE INTEGER, PART_CONTAINER CHAR(10),
        PART_RETAILPRICE DECIMAL(15,2), EFFECTIVE_FROM DATE NOT NULL, {meta}, PRIMARY KEY (PART_HK, LOAD_DATE));
    CREATE TABLE SAT_SUPPLIER_DETAILS (SUPPLIER_HK CHAR(32) NOT NULL REFERENCES HUB_SUPPLIER, HASHDIFF CHAR(32) NOT NULL,
        SUPPLIER_NAME CHAR(25), SUPPLIER_ADDRESS VARCHAR(40), SUPPLIER_PHONE CHAR(15), SUPPLIER_ACCTBAL DECIMAL(15,2),
        EFFECTIVE_FROM DATE NOT NULL, {meta}, PRIMARY KEY (SUPPLIER_HK, LOAD_DATE));
    CREATE TABLE SAT_INVENTORY_DETAILS (LINK_INVENTORY_HK CHAR(32) NOT NULL REFERENCES LINK_INVENTORY, HASHDIFF CHAR(32) NOT NULL,
        AVAILQTY INTEGER, SUPPLYCOST DECIMAL(15,2), EFFECTIVE_FROM DATE NOT NULL, {meta}, PRIMARY KEY (LINK_INVENTORY_HK, LOAD_DATE));
    CREATE TABLE SAT_LINEITEM_DETAILS (LINK_LINEITEM_HK CHAR(32) NOT NULL REFERENCES LINK_LINEITEM, HASHDIFF CHAR(32) NOT NULL,
        LINENUMBER INTEGER, QUANTITY DECIMAL(15,2), EXTENDEDPRICE DECIMAL(15,2), DISCOUNT DECIMAL(15,2), TAX DECIMAL(15,2),
        RETURNFLAG CHAR(1), LINESTATUS CHAR(1), SHIPDATE DATE, EFFECTIVE_FROM DATE NOT NULL, {meta},
        PRIMARY KEY (LINK_LINEITEM_HK, LOAD_DATE));
    """)

    def hk(*parts):
        return hashlib.md5("||".join(str(p) for p in parts).encode()).hexdigest().upper()
    loads = ["2024-01-01 00:00:00", "2024-02-01 00:00:00", "2024-03-01 00:00:00"]
    src = "TPCH_SAMPLE"
    R, N, C, O, P, S = 5, 25, 1500, 6000, 800, 60
    insert(c, "HUB_REGION", [(hk(r), r, loads[0], src) for r in range(R)])
    insert(c, "HUB_NATION", [(hk(n), n, loads[0], src) for n in range(N)])
    insert(c, "LINK_NATION_REGION", [(hk(n, n % R), hk(n), hk(n % R), loads[0], src) for n in range(N)])
    insert(c, "HUB_CUSTOMER", [(hk(k), k, loads[min(2, k // 600)], src) for k in range(1, C + 1)])
    insert(c, "LINK_CUSTOMER_NATION", [(hk(k, k % N), hk(k), hk(k % N), loads[min(2, k // 600)], src) for k in range(1, C + 1)])
    sat = []
    for k in range(1, C + 1):
        for j in range(rnd.choice([1, 1, 2, 3])):
            row = (name(rnd), f"{rnd.randint(1, 999)} {word(rnd).title()} St", f"{rnd.randint(10, 34)}-{rnd.randint(100, 999)}-{rnd.randint(100, 999)}-{rnd.randint(1000, 9999)}",
                   round(rnd.uniform(-999, 9999), 2), rnd.choice(["AUTOMOBILE", "BUILDING", "FURNITURE", "MACHINERY", "HOUSEHOLD"]))
            sat.append((hk(k), hk(*row)) + row + (loads[j][:10], loads[j], src))
    insert(c, "SAT_CUSTOMER_DETAILS", sat)
    insert(c, "HUB_PART", [(hk(p), p, loads[0], src) for p in range(1, P + 1)])
    insert(c, "HUB_SUPPLIER", [(hk(s), s, loads[0], src) for s in range(1, S + 1)])
    sat = []
    for p in range(1, P + 1):
        row = (word(rnd, 3), f"Manufacturer#{rnd.randint(1, 5)}", f"Brand#{rnd.randint(11, 55)}", word(rnd, 2).upper(), rnd.randint(1, 50),
               rnd.choice(["SM CASE", "LG BOX", "MED BAG", "JUMBO PKG"]), round(900 + p / 10, 2))
        sat.append((hk(p), hk(*row)) + row + (loads[0][:10], loads[0], src))
    insert(c, "SAT_PART_DETAILS", sat)
    sat = [(hk(s), hk(s, "x")) + (f"Supplier#{s:09d}", word(rnd, 2), f"{rnd.randint(10, 34)}-555-{rnd.randint(1000, 9999)}", round(rnd.uniform(-999, 9999), 2))
           + (loads[0][:10], loads[0], src) for s in range(1, S + 1)]
    insert(c, "SAT_SUPPLIER_DETAILS", sat)
    inv = {}
    for p in range(1, P + 1):
        for s in rnd.sample(range(1, S + 1), 4):
            inv[(p, s)] = hk(p, s)
    insert(c, "LINK_INVENTORY", [(h, hk(p), hk(s), loads[0], src) for (p, s), h in inv.items()])
    insert(c, "SAT_INVENTORY_DETAILS", [(h, hk(h, "d"), rnd.randint(1, 9999), round(rnd.uniform(1, 1000), 2), loads[0][:10], loads[0], src)
                                        for h in inv.values()])
    hubs, links, sats, items, isats = [], [], [], [], []
    pairs = list(inv)
    for o in range(1, O + 1):
        cust = rnd.randint(1, C)
        load = loads[rnd.randint(0, 2)]
        hubs.append((hk(o), o, load, src))
        links.append((hk(cust, o), hk(cust), hk(o), load, src))
        row = (rnd.choice("OFP"), round(rnd.uniform(1000, 400000), 2), day(rnd, 1992, 1998).isoformat(), rnd.choice(["1-URGENT", "2-HIGH", "5-LOW"]),
               f"Clerk#{rnd.randint(1, 1000):09d}", 0)
        sats.append((hk(o), hk(*row)) + row + (load[:10], load, src))
        for n in range(1, rnd.randint(1, 5) + 1):
            p, s = rnd.choice(pairs)
            h = hk(o, n)
            items.append((h, hk(o), hk(p), hk(s), load, src))
            row = (n, rnd.randint(1, 50), round(rnd.uniform(900, 90000), 2), round(rnd.uniform(0, 0.1), 2), round(rnd.uniform(0, 0.08), 2),
                   rnd.choice("RAN"), rnd.choice("OF"), day(rnd, 1992, 1998).isoformat())
            isats.append((h, hk(*row)) + row + (load[:10], load, src))
    insert(c, "HUB_ORDER", hubs)
    insert(c, "LINK_CUSTOMER_ORDER", links)
    insert(c, "SAT_ORDER_DETAILS", sats)
    insert(c, "LINK_LINEITEM", items)
    insert(c, "SAT_LINEITEM_DETAILS", isats)
    c.commit()
    return c, [(f + (False,)) for f in [
        ("LINK_NATION_REGION", "NATION_HK", "HUB_NATION", "NATION_HK"), ("LINK_NATION_REGION", "REGION_HK", "HUB_REGION", "REGION_HK"),
        ("LINK_CUSTOMER_NATION", "CUSTOMER_HK", "HUB_CUSTOMER", "CUSTOMER_HK"), ("LINK_CUSTOMER_NATION", "NATION_HK", "HUB_NATION", "NATION_HK"),
        ("LINK_CUSTOMER_ORDER", "CUSTOMER_HK", "HUB_CUSTOMER", "CUSTOMER_HK"), ("LINK_CUSTOMER_ORDER", "ORDER_HK", "HUB_ORDER", "ORDER_HK"),
        ("LINK_INVENTORY", "PART_HK", "HUB_PART", "PART_HK"), ("LINK_INVENTORY", "SUPPLIER_HK", "HUB_SUPPLIER", "SUPPLIER_HK"),
        ("LINK_LINEITEM", "ORDER_HK", "HUB_ORDER", "ORDER_HK"), ("LINK_LINEITEM", "PART_HK", "HUB_PART", "PART_HK"),
        ("LINK_LINEITEM", "SUPPLIER_HK", "HUB_SUPPLIER", "SUPPLIER_HK"),
        ("SAT_CUSTOMER_DETAILS", "CUSTOMER_HK", "HUB_CUSTOMER", "CUSTOMER_HK"), ("SAT_ORDER_DETAILS", "ORDER_HK", "HUB_ORDER", "ORDER_HK"),
        ("SAT_PART_DETAILS", "PART_HK", "HUB_PART", "PART_HK"), ("SAT_SUPPLIER_DETAILS", "SUPPLIER_HK", "HUB_SUPPLIER", "SUPPLIER_HK"),
        ("SAT_INVENTORY_DETAILS", "LINK_INVENTORY_HK", "LINK_INVENTORY", "LINK_INVENTORY_HK"),
        ("SAT_LINEITEM_DETAILS", "LINK_LINEITEM_HK", "LINK_LINEITEM", "LINK_LINEITEM_HK"),
    ]]


if __name__ == "__main__":
    sets = [("scott", scott), ("sh", sh), ("adventureworksdw", adventureworksdw), ("wideworldimporters", wideworldimporters), ("odoo", odoo),
            ("datavault", datavault)]
    appsets.main(sets + [(name + "_lake", appsets.lake(make)) for name, make in sets])

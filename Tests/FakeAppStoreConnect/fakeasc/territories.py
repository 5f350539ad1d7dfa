"""Storefront territories the fake serves, and the currency App Store Connect prices each one in.

App Store Connect prices 175 storefronts in 43 currencies: a storefront without its own App Store currency prices in
US dollars (Iceland, Argentina, Kenya, ...) even where its country has another. Written for the fake from Apple's
published table of report regions and currencies. Prices outside the USA are synthetic (see reference.synthetic_price).
"""

# Storefronts with their own App Store currency (other than the euro and the US dollar).
OWN_CURRENCY = """
ARE AED AUS AUD BRA BRL CAN CAD CHE CHF CHL CLP CHN CNY COL COP CZE CZK DNK DKK EGY EGP GBR GBP HKG HKD HUN HUF
IDN IDR IND INR ISR ILS JPN JPY KAZ KZT KOR KRW MEX MXN MYS MYR NGA NGN NOR NOK NZL NZD PAK PKR PER PEN PHL PHP
POL PLN QAT QAR ROU RON RUS RUB SAU SAR SGP SGD SWE SEK THA THB TUR TRY TWN TWD TZA TZS VNM VND ZAF ZAR
"""

# Storefronts App Store Connect prices in euros.
EURO = """
AUT BEL BGR BIH CYP DEU ESP EST FIN FRA GRC HRV IRL ITA LTU LUX LVA MLT MNE NLD PRT SRB SVK SVN XKS
"""

# Storefronts priced in US dollars.
DOLLAR = """
AFG AGO AIA ALB ARG ARM ATG AZE BEN BFA BHR BHS BLR BLZ BMU BOL BRB BRN BTN BWA CIV CMR COD COG CPV CRI CYM DMA
DOM DZA ECU FJI FSM GAB GEO GHA GMB GNB GRD GTM GUY HND IRQ ISL JAM JOR KEN KGZ KHM KNA KWT LAO LBN LBR LBY LCA
LKA MAC MAR MDA MDG MDV MKD MLI MMR MNG MOZ MRT MSR MUS MWI NAM NER NIC NPL NRU OMN PAN PLW PNG PRY RWA SEN SLB
SLE SLV STP SUR SWZ SYC TCA TCD TJK TKM TON TTO TUN UGA UKR URY USA UZB VCT VEN VGB VUT YEM ZMB ZWE
"""

_own = OWN_CURRENCY.split()
CURRENCY = dict(zip(_own[0::2], _own[1::2]))
CURRENCY.update({code: "EUR" for code in EURO.split()})
CURRENCY.update({code: "USD" for code in DOLLAR.split()})
CODES = sorted(CURRENCY)
assert len(CODES) == 175, len(CODES)

// SPDX-License-Identifier: Apache-2.0
#include "engine/schema/vocabularies.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <unordered_set>

#include "engine/schema/typed_values.h"

namespace deniable {
namespace {

// ISO 3166-1: alpha-2, alpha-3, numeric and English short name of each of the 249 assigned
// codes, in alpha-2 order. Written from the standard; the same as Debian's iso-codes 4.15
// (iso_3166-1.json, "name"), checked entry by entry.
struct Country {
  const char* alpha2;
  const char* alpha3;
  const char* numeric;
  const char* name;
};
constexpr Country kCountries[] = {
    {"AD", "AND", "020", "Andorra"},
    {"AE", "ARE", "784", "United Arab Emirates"},
    {"AF", "AFG", "004", "Afghanistan"},
    {"AG", "ATG", "028", "Antigua and Barbuda"},
    {"AI", "AIA", "660", "Anguilla"},
    {"AL", "ALB", "008", "Albania"},
    {"AM", "ARM", "051", "Armenia"},
    {"AO", "AGO", "024", "Angola"},
    {"AQ", "ATA", "010", "Antarctica"},
    {"AR", "ARG", "032", "Argentina"},
    {"AS", "ASM", "016", "American Samoa"},
    {"AT", "AUT", "040", "Austria"},
    {"AU", "AUS", "036", "Australia"},
    {"AW", "ABW", "533", "Aruba"},
    {"AX", "ALA", "248", "Åland Islands"},
    {"AZ", "AZE", "031", "Azerbaijan"},
    {"BA", "BIH", "070", "Bosnia and Herzegovina"},
    {"BB", "BRB", "052", "Barbados"},
    {"BD", "BGD", "050", "Bangladesh"},
    {"BE", "BEL", "056", "Belgium"},
    {"BF", "BFA", "854", "Burkina Faso"},
    {"BG", "BGR", "100", "Bulgaria"},
    {"BH", "BHR", "048", "Bahrain"},
    {"BI", "BDI", "108", "Burundi"},
    {"BJ", "BEN", "204", "Benin"},
    {"BL", "BLM", "652", "Saint Barthélemy"},
    {"BM", "BMU", "060", "Bermuda"},
    {"BN", "BRN", "096", "Brunei Darussalam"},
    {"BO", "BOL", "068", "Bolivia, Plurinational State of"},
    {"BQ", "BES", "535", "Bonaire, Sint Eustatius and Saba"},
    {"BR", "BRA", "076", "Brazil"},
    {"BS", "BHS", "044", "Bahamas"},
    {"BT", "BTN", "064", "Bhutan"},
    {"BV", "BVT", "074", "Bouvet Island"},
    {"BW", "BWA", "072", "Botswana"},
    {"BY", "BLR", "112", "Belarus"},
    {"BZ", "BLZ", "084", "Belize"},
    {"CA", "CAN", "124", "Canada"},
    {"CC", "CCK", "166", "Cocos (Keeling) Islands"},
    {"CD", "COD", "180", "Congo, The Democratic Republic of the"},
    {"CF", "CAF", "140", "Central African Republic"},
    {"CG", "COG", "178", "Congo"},
    {"CH", "CHE", "756", "Switzerland"},
    {"CI", "CIV", "384", "Côte d'Ivoire"},
    {"CK", "COK", "184", "Cook Islands"},
    {"CL", "CHL", "152", "Chile"},
    {"CM", "CMR", "120", "Cameroon"},
    {"CN", "CHN", "156", "China"},
    {"CO", "COL", "170", "Colombia"},
    {"CR", "CRI", "188", "Costa Rica"},
    {"CU", "CUB", "192", "Cuba"},
    {"CV", "CPV", "132", "Cabo Verde"},
    {"CW", "CUW", "531", "Curaçao"},
    {"CX", "CXR", "162", "Christmas Island"},
    {"CY", "CYP", "196", "Cyprus"},
    {"CZ", "CZE", "203", "Czechia"},
    {"DE", "DEU", "276", "Germany"},
    {"DJ", "DJI", "262", "Djibouti"},
    {"DK", "DNK", "208", "Denmark"},
    {"DM", "DMA", "212", "Dominica"},
    {"DO", "DOM", "214", "Dominican Republic"},
    {"DZ", "DZA", "012", "Algeria"},
    {"EC", "ECU", "218", "Ecuador"},
    {"EE", "EST", "233", "Estonia"},
    {"EG", "EGY", "818", "Egypt"},
    {"EH", "ESH", "732", "Western Sahara"},
    {"ER", "ERI", "232", "Eritrea"},
    {"ES", "ESP", "724", "Spain"},
    {"ET", "ETH", "231", "Ethiopia"},
    {"FI", "FIN", "246", "Finland"},
    {"FJ", "FJI", "242", "Fiji"},
    {"FK", "FLK", "238", "Falkland Islands (Malvinas)"},
    {"FM", "FSM", "583", "Micronesia, Federated States of"},
    {"FO", "FRO", "234", "Faroe Islands"},
    {"FR", "FRA", "250", "France"},
    {"GA", "GAB", "266", "Gabon"},
    {"GB", "GBR", "826", "United Kingdom"},
    {"GD", "GRD", "308", "Grenada"},
    {"GE", "GEO", "268", "Georgia"},
    {"GF", "GUF", "254", "French Guiana"},
    {"GG", "GGY", "831", "Guernsey"},
    {"GH", "GHA", "288", "Ghana"},
    {"GI", "GIB", "292", "Gibraltar"},
    {"GL", "GRL", "304", "Greenland"},
    {"GM", "GMB", "270", "Gambia"},
    {"GN", "GIN", "324", "Guinea"},
    {"GP", "GLP", "312", "Guadeloupe"},
    {"GQ", "GNQ", "226", "Equatorial Guinea"},
    {"GR", "GRC", "300", "Greece"},
    {"GS", "SGS", "239", "South Georgia and the South Sandwich Islands"},
    {"GT", "GTM", "320", "Guatemala"},
    {"GU", "GUM", "316", "Guam"},
    {"GW", "GNB", "624", "Guinea-Bissau"},
    {"GY", "GUY", "328", "Guyana"},
    {"HK", "HKG", "344", "Hong Kong"},
    {"HM", "HMD", "334", "Heard Island and McDonald Islands"},
    {"HN", "HND", "340", "Honduras"},
    {"HR", "HRV", "191", "Croatia"},
    {"HT", "HTI", "332", "Haiti"},
    {"HU", "HUN", "348", "Hungary"},
    {"ID", "IDN", "360", "Indonesia"},
    {"IE", "IRL", "372", "Ireland"},
    {"IL", "ISR", "376", "Israel"},
    {"IM", "IMN", "833", "Isle of Man"},
    {"IN", "IND", "356", "India"},
    {"IO", "IOT", "086", "British Indian Ocean Territory"},
    {"IQ", "IRQ", "368", "Iraq"},
    {"IR", "IRN", "364", "Iran, Islamic Republic of"},
    {"IS", "ISL", "352", "Iceland"},
    {"IT", "ITA", "380", "Italy"},
    {"JE", "JEY", "832", "Jersey"},
    {"JM", "JAM", "388", "Jamaica"},
    {"JO", "JOR", "400", "Jordan"},
    {"JP", "JPN", "392", "Japan"},
    {"KE", "KEN", "404", "Kenya"},
    {"KG", "KGZ", "417", "Kyrgyzstan"},
    {"KH", "KHM", "116", "Cambodia"},
    {"KI", "KIR", "296", "Kiribati"},
    {"KM", "COM", "174", "Comoros"},
    {"KN", "KNA", "659", "Saint Kitts and Nevis"},
    {"KP", "PRK", "408", "Korea, Democratic People's Republic of"},
    {"KR", "KOR", "410", "Korea, Republic of"},
    {"KW", "KWT", "414", "Kuwait"},
    {"KY", "CYM", "136", "Cayman Islands"},
    {"KZ", "KAZ", "398", "Kazakhstan"},
    {"LA", "LAO", "418", "Lao People's Democratic Republic"},
    {"LB", "LBN", "422", "Lebanon"},
    {"LC", "LCA", "662", "Saint Lucia"},
    {"LI", "LIE", "438", "Liechtenstein"},
    {"LK", "LKA", "144", "Sri Lanka"},
    {"LR", "LBR", "430", "Liberia"},
    {"LS", "LSO", "426", "Lesotho"},
    {"LT", "LTU", "440", "Lithuania"},
    {"LU", "LUX", "442", "Luxembourg"},
    {"LV", "LVA", "428", "Latvia"},
    {"LY", "LBY", "434", "Libya"},
    {"MA", "MAR", "504", "Morocco"},
    {"MC", "MCO", "492", "Monaco"},
    {"MD", "MDA", "498", "Moldova, Republic of"},
    {"ME", "MNE", "499", "Montenegro"},
    {"MF", "MAF", "663", "Saint Martin (French part)"},
    {"MG", "MDG", "450", "Madagascar"},
    {"MH", "MHL", "584", "Marshall Islands"},
    {"MK", "MKD", "807", "North Macedonia"},
    {"ML", "MLI", "466", "Mali"},
    {"MM", "MMR", "104", "Myanmar"},
    {"MN", "MNG", "496", "Mongolia"},
    {"MO", "MAC", "446", "Macao"},
    {"MP", "MNP", "580", "Northern Mariana Islands"},
    {"MQ", "MTQ", "474", "Martinique"},
    {"MR", "MRT", "478", "Mauritania"},
    {"MS", "MSR", "500", "Montserrat"},
    {"MT", "MLT", "470", "Malta"},
    {"MU", "MUS", "480", "Mauritius"},
    {"MV", "MDV", "462", "Maldives"},
    {"MW", "MWI", "454", "Malawi"},
    {"MX", "MEX", "484", "Mexico"},
    {"MY", "MYS", "458", "Malaysia"},
    {"MZ", "MOZ", "508", "Mozambique"},
    {"NA", "NAM", "516", "Namibia"},
    {"NC", "NCL", "540", "New Caledonia"},
    {"NE", "NER", "562", "Niger"},
    {"NF", "NFK", "574", "Norfolk Island"},
    {"NG", "NGA", "566", "Nigeria"},
    {"NI", "NIC", "558", "Nicaragua"},
    {"NL", "NLD", "528", "Netherlands"},
    {"NO", "NOR", "578", "Norway"},
    {"NP", "NPL", "524", "Nepal"},
    {"NR", "NRU", "520", "Nauru"},
    {"NU", "NIU", "570", "Niue"},
    {"NZ", "NZL", "554", "New Zealand"},
    {"OM", "OMN", "512", "Oman"},
    {"PA", "PAN", "591", "Panama"},
    {"PE", "PER", "604", "Peru"},
    {"PF", "PYF", "258", "French Polynesia"},
    {"PG", "PNG", "598", "Papua New Guinea"},
    {"PH", "PHL", "608", "Philippines"},
    {"PK", "PAK", "586", "Pakistan"},
    {"PL", "POL", "616", "Poland"},
    {"PM", "SPM", "666", "Saint Pierre and Miquelon"},
    {"PN", "PCN", "612", "Pitcairn"},
    {"PR", "PRI", "630", "Puerto Rico"},
    {"PS", "PSE", "275", "Palestine, State of"},
    {"PT", "PRT", "620", "Portugal"},
    {"PW", "PLW", "585", "Palau"},
    {"PY", "PRY", "600", "Paraguay"},
    {"QA", "QAT", "634", "Qatar"},
    {"RE", "REU", "638", "Réunion"},
    {"RO", "ROU", "642", "Romania"},
    {"RS", "SRB", "688", "Serbia"},
    {"RU", "RUS", "643", "Russian Federation"},
    {"RW", "RWA", "646", "Rwanda"},
    {"SA", "SAU", "682", "Saudi Arabia"},
    {"SB", "SLB", "090", "Solomon Islands"},
    {"SC", "SYC", "690", "Seychelles"},
    {"SD", "SDN", "729", "Sudan"},
    {"SE", "SWE", "752", "Sweden"},
    {"SG", "SGP", "702", "Singapore"},
    {"SH", "SHN", "654", "Saint Helena, Ascension and Tristan da Cunha"},
    {"SI", "SVN", "705", "Slovenia"},
    {"SJ", "SJM", "744", "Svalbard and Jan Mayen"},
    {"SK", "SVK", "703", "Slovakia"},
    {"SL", "SLE", "694", "Sierra Leone"},
    {"SM", "SMR", "674", "San Marino"},
    {"SN", "SEN", "686", "Senegal"},
    {"SO", "SOM", "706", "Somalia"},
    {"SR", "SUR", "740", "Suriname"},
    {"SS", "SSD", "728", "South Sudan"},
    {"ST", "STP", "678", "Sao Tome and Principe"},
    {"SV", "SLV", "222", "El Salvador"},
    {"SX", "SXM", "534", "Sint Maarten (Dutch part)"},
    {"SY", "SYR", "760", "Syrian Arab Republic"},
    {"SZ", "SWZ", "748", "Eswatini"},
    {"TC", "TCA", "796", "Turks and Caicos Islands"},
    {"TD", "TCD", "148", "Chad"},
    {"TF", "ATF", "260", "French Southern Territories"},
    {"TG", "TGO", "768", "Togo"},
    {"TH", "THA", "764", "Thailand"},
    {"TJ", "TJK", "762", "Tajikistan"},
    {"TK", "TKL", "772", "Tokelau"},
    {"TL", "TLS", "626", "Timor-Leste"},
    {"TM", "TKM", "795", "Turkmenistan"},
    {"TN", "TUN", "788", "Tunisia"},
    {"TO", "TON", "776", "Tonga"},
    {"TR", "TUR", "792", "Türkiye"},
    {"TT", "TTO", "780", "Trinidad and Tobago"},
    {"TV", "TUV", "798", "Tuvalu"},
    {"TW", "TWN", "158", "Taiwan, Province of China"},
    {"TZ", "TZA", "834", "Tanzania, United Republic of"},
    {"UA", "UKR", "804", "Ukraine"},
    {"UG", "UGA", "800", "Uganda"},
    {"UM", "UMI", "581", "United States Minor Outlying Islands"},
    {"US", "USA", "840", "United States"},
    {"UY", "URY", "858", "Uruguay"},
    {"UZ", "UZB", "860", "Uzbekistan"},
    {"VA", "VAT", "336", "Holy See (Vatican City State)"},
    {"VC", "VCT", "670", "Saint Vincent and the Grenadines"},
    {"VE", "VEN", "862", "Venezuela, Bolivarian Republic of"},
    {"VG", "VGB", "092", "Virgin Islands, British"},
    {"VI", "VIR", "850", "Virgin Islands, U.S."},
    {"VN", "VNM", "704", "Viet Nam"},
    {"VU", "VUT", "548", "Vanuatu"},
    {"WF", "WLF", "876", "Wallis and Futuna"},
    {"WS", "WSM", "882", "Samoa"},
    {"YE", "YEM", "887", "Yemen"},
    {"YT", "MYT", "175", "Mayotte"},
    {"ZA", "ZAF", "710", "South Africa"},
    {"ZM", "ZMB", "894", "Zambia"},
    {"ZW", "ZWE", "716", "Zimbabwe"},
};

// ISO 4217 alphabetic codes in current use: the 2023 list (after HRK was withdrawn), with
// fund codes (BOV, CHE, CHW, CLF, COU, MXV, USN, UYI, UYW), precious metals (XAG, XAU, XPD,
// XPT), bond-market units (XBA-XBD), XDR, XSU, XUA and the codes for testing and "no currency"
// (XTS, XXX), plus ZWG (2024) and XCG (2025). Codes being phased out (ANG, SLL, ZWL) stay.
constexpr const char* kCurrencies[] = {
    "AED", "AFN", "ALL", "AMD", "ANG", "AOA", "ARS", "AUD", "AWG", "AZN", "BAM", "BBD",
    "BDT", "BGN", "BHD", "BIF", "BMD", "BND", "BOB", "BOV", "BRL", "BSD", "BTN", "BWP",
    "BYN", "BZD", "CAD", "CDF", "CHE", "CHF", "CHW", "CLF", "CLP", "CNY", "COP", "COU",
    "CRC", "CUC", "CUP", "CVE", "CZK", "DJF", "DKK", "DOP", "DZD", "EGP", "ERN", "ETB",
    "EUR", "FJD", "FKP", "GBP", "GEL", "GHS", "GIP", "GMD", "GNF", "GTQ", "GYD", "HKD",
    "HNL", "HTG", "HUF", "IDR", "ILS", "INR", "IQD", "IRR", "ISK", "JMD", "JOD", "JPY",
    "KES", "KGS", "KHR", "KMF", "KPW", "KRW", "KWD", "KYD", "KZT", "LAK", "LBP", "LKR",
    "LRD", "LSL", "LYD", "MAD", "MDL", "MGA", "MKD", "MMK", "MNT", "MOP", "MRU", "MUR",
    "MVR", "MWK", "MXN", "MXV", "MYR", "MZN", "NAD", "NGN", "NIO", "NOK", "NPR", "NZD",
    "OMR", "PAB", "PEN", "PGK", "PHP", "PKR", "PLN", "PYG", "QAR", "RON", "RSD", "RUB",
    "RWF", "SAR", "SBD", "SCR", "SDG", "SEK", "SGD", "SHP", "SLE", "SLL", "SOS", "SRD",
    "SSP", "STN", "SVC", "SYP", "SZL", "THB", "TJS", "TMT", "TND", "TOP", "TRY", "TTD",
    "TWD", "TZS", "UAH", "UGX", "USD", "USN", "UYI", "UYU", "UYW", "UZS", "VED", "VES",
    "VND", "VUV", "WST", "XAF", "XAG", "XAU", "XBA", "XBB", "XBC", "XBD", "XCD", "XCG",
    "XDR", "XOF", "XPD", "XPF", "XPT", "XSU", "XTS", "XUA", "XXX", "YER", "ZAR", "ZMW",
    "ZWG", "ZWL",
};

// USPS codes and names of the 50 states and the District of Columbia, then the five inhabited
// territories (American Samoa, Guam, the Northern Mariana Islands, Puerto Rico, the U.S.
// Virgin Islands).
struct State {
  const char* code;
  const char* name;
};
constexpr std::size_t kStatesAndDc = 51;
constexpr State kStates[] = {
    {"AL", "Alabama"},        {"AK", "Alaska"},         {"AZ", "Arizona"},
    {"AR", "Arkansas"},       {"CA", "California"},     {"CO", "Colorado"},
    {"CT", "Connecticut"},    {"DE", "Delaware"},       {"DC", "District of Columbia"},
    {"FL", "Florida"},        {"GA", "Georgia"},        {"HI", "Hawaii"},
    {"ID", "Idaho"},          {"IL", "Illinois"},       {"IN", "Indiana"},
    {"IA", "Iowa"},           {"KS", "Kansas"},         {"KY", "Kentucky"},
    {"LA", "Louisiana"},      {"ME", "Maine"},          {"MD", "Maryland"},
    {"MA", "Massachusetts"},  {"MI", "Michigan"},       {"MN", "Minnesota"},
    {"MS", "Mississippi"},    {"MO", "Missouri"},       {"MT", "Montana"},
    {"NE", "Nebraska"},       {"NV", "Nevada"},         {"NH", "New Hampshire"},
    {"NJ", "New Jersey"},     {"NM", "New Mexico"},     {"NY", "New York"},
    {"NC", "North Carolina"}, {"ND", "North Dakota"},   {"OH", "Ohio"},
    {"OK", "Oklahoma"},       {"OR", "Oregon"},         {"PA", "Pennsylvania"},
    {"RI", "Rhode Island"},   {"SC", "South Carolina"}, {"SD", "South Dakota"},
    {"TN", "Tennessee"},      {"TX", "Texas"},          {"UT", "Utah"},
    {"VT", "Vermont"},        {"VA", "Virginia"},       {"WA", "Washington"},
    {"WV", "West Virginia"},  {"WI", "Wisconsin"},      {"WY", "Wyoming"},
    // Territories.
    {"AS", "American Samoa"}, {"GU", "Guam"},           {"MP", "Northern Mariana Islands"},
    {"PR", "Puerto Rico"},    {"VI", "U.S. Virgin Islands"}};

std::vector<std::string> Months(bool abbreviated) {
  static constexpr std::array<const char*, 12> kMonths = {
      "January", "February", "March",     "April",   "May",      "June",
      "July",    "August",   "September", "October", "November", "December"};
  std::vector<std::string> out;
  for (const char* month : kMonths) out.push_back(abbreviated ? std::string(month, 3) : month);
  return out;
}

std::vector<std::string> Weekdays(bool abbreviated) {
  static constexpr std::array<const char*, 7> kDays = {
      "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"};
  std::vector<std::string> out;
  for (const char* day : kDays) out.push_back(abbreviated ? std::string(day, 3) : day);
  return out;
}

// A1..A5, B1..B5, ..., G1..G5 (consumer-credit sub-grades).
std::vector<std::string> SubGrades() {
  std::vector<std::string> out;
  for (char letter = 'A'; letter <= 'G'; ++letter) {
    for (char digit = '1'; digit <= '5'; ++digit) out.push_back(std::string{letter, digit});
  }
  return out;
}

template <typename Row, std::size_t N, typename Field>
std::vector<std::string> Column(const Row (&rows)[N], std::size_t count, Field field) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < count && i < N; ++i) out.emplace_back(field(rows[i]));
  return out;
}

std::vector<Vocabulary> BuildVocabularies() {
  constexpr std::size_t kAllCountries = std::size(kCountries);
  constexpr std::size_t kAllStates = std::size(kStates);
  const char* const kIso3166 = "ISO 3166-1 (249 codes; as Debian iso-codes 4.15)";
  const char* const kUsps = "USPS state abbreviations";
  std::vector<Vocabulary> out = {
      {"us-states-usps", "US states and DC (USPS codes)", kUsps,
       Column(kStates, kStatesAndDc, [](const State& s) { return s.code; })},
      {"us-states-territories-usps", "US states, DC and territories (USPS codes)", kUsps,
       Column(kStates, kAllStates, [](const State& s) { return s.code; })},
      {"us-states-names", "US states and DC (names)", kUsps,
       Column(kStates, kStatesAndDc, [](const State& s) { return s.name; })},
      {"us-states-territories-names", "US states, DC and territories (names)", kUsps,
       Column(kStates, kAllStates, [](const State& s) { return s.name; })},
      {"countries-iso-alpha2", "Countries (ISO 3166-1 alpha-2 codes)", kIso3166,
       Column(kCountries, kAllCountries, [](const Country& c) { return c.alpha2; })},
      {"countries-iso-alpha3", "Countries (ISO 3166-1 alpha-3 codes)", kIso3166,
       Column(kCountries, kAllCountries, [](const Country& c) { return c.alpha3; })},
      {"countries-iso-numeric", "Countries (ISO 3166-1 numeric codes, 3 digits)", kIso3166,
       Column(kCountries, kAllCountries, [](const Country& c) { return c.numeric; })},
      {"countries-iso-names", "Countries (ISO 3166-1 English short names)", kIso3166,
       Column(kCountries, kAllCountries, [](const Country& c) { return c.name; })},
      {"currencies-iso4217", "Currencies (ISO 4217 codes)", "ISO 4217 (2023 list, ZWG, XCG)",
       std::vector<std::string>(std::begin(kCurrencies), std::end(kCurrencies))},
      {"months-en", "Months (English)", "English calendar", Months(false)},
      {"months-en-abbr", "Months (English, 3 letters)", "English calendar", Months(true)},
      {"weekdays-en", "Weekdays (English)", "English calendar", Weekdays(false)},
      {"weekdays-en-abbr", "Weekdays (English, 3 letters)", "English calendar", Weekdays(true)},
      {"boolean-yes-no", "Booleans yes / no", "common spelling", {"yes", "no"}},
      {"boolean-true-false", "Booleans true / false", "common spelling", {"true", "false"}},
      {"boolean-y-n", "Booleans y / n", "common spelling", {"y", "n"}},
      {"boolean-t-f", "Booleans t / f", "common spelling", {"t", "f"}},
      {"boolean-0-1", "Booleans 0 / 1", "common spelling", {"0", "1"}},
      {"grades-us", "US letter grades A, B, C, D, F", "US grading", {"A", "B", "C", "D", "F"}},
      {"grades-us-plus-minus", "US letter grades with + and - (A+ ... F)", "US grading",
       {"A+", "A", "A-", "B+", "B", "B-", "C+", "C", "C-", "D+", "D", "D-", "F"}},
      {"grades-a-g", "Letter grades A to G", "grades and energy classes",
       {"A", "B", "C", "D", "E", "F", "G"}},
      {"grades-a1-g5", "Letter sub-grades A1 to G5", "consumer-credit sub-grades", SubGrades()},
      {"sex-f-m", "Sex codes F / M", "common coding", {"F", "M"}},
      {"sex-female-male", "Sex female / male", "common coding", {"female", "male"}},
  };
  return out;
}

// UTF-8 Latin-1 letters are C3 80..C3 9E (upper, but not C3 97 ×) and C3 A0..C3 BE (lower,
// but not C3 B7 ÷); a case pair differs by 0x20 in the second byte. ß and ÿ stay as they are.
void ChangeCase(std::string& text, std::size_t from, bool upper) {
  for (std::size_t i = from; i < text.size(); ++i) {
    const auto byte = static_cast<unsigned char>(text[i]);
    if (byte < 0x80) {
      if (upper && byte >= 'a' && byte <= 'z') text[i] = static_cast<char>(byte - 32);
      if (!upper && byte >= 'A' && byte <= 'Z') text[i] = static_cast<char>(byte + 32);
    } else if (byte == 0xC3 && i + 1 < text.size()) {
      const auto next = static_cast<unsigned char>(text[i + 1]);
      if (upper && next >= 0xA0 && next <= 0xBE && next != 0xB7) {
        text[i + 1] = static_cast<char>(next - 0x20);
      } else if (!upper && next >= 0x80 && next <= 0x9E && next != 0x97) {
        text[i + 1] = static_cast<char>(next + 0x20);
      }
      ++i;
    }
  }
}

// Bytes of the first character (1 for ASCII, the UTF-8 sequence's length otherwise).
std::size_t FirstCharacterBytes(std::string_view text) {
  if (text.empty()) return 0;
  std::size_t n = 1;
  while (n < text.size() && (static_cast<unsigned char>(text[n]) & 0xC0) == 0x80) ++n;
  return n;
}

// Distinct entries of `entries` the column holds (by text, or by value for numeric columns).
std::size_t ObservedEntries(const RawColumn& raw, const ColumnSchema& column,
                            const std::vector<std::string>& entries) {
  std::size_t observed = 0;
  if (column.is_numeric()) {
    std::unordered_set<double> values;
    for (const std::string& text : raw.dictionary) {
      if (const auto value = ParseNumericCell(text, column)) values.insert(*value);
    }
    for (const std::string& entry : entries) {
      const auto value = ParseNumericCell(entry, column);
      observed += value && values.count(*value) > 0 ? 1 : 0;
    }
    return observed;
  }
  const std::unordered_set<std::string_view> texts(raw.dictionary.begin(), raw.dictionary.end());
  for (const std::string& entry : entries) observed += texts.count(entry);
  return observed;
}

}  // namespace

const std::vector<Vocabulary>& PublicVocabularies() {
  static const std::vector<Vocabulary> kVocabularies = BuildVocabularies();
  return kVocabularies;
}

const Vocabulary* FindVocabulary(std::string_view id) {
  for (const Vocabulary& vocabulary : PublicVocabularies()) {
    if (vocabulary.id == id) return &vocabulary;
  }
  return nullptr;
}

std::string ApplyLetterCase(std::string_view text, LetterCase letter_case) {
  std::string out(text);
  switch (letter_case) {
    case LetterCase::kAsListed: break;
    case LetterCase::kUpper: ChangeCase(out, 0, true); break;
    case LetterCase::kLower: ChangeCase(out, 0, false); break;
    case LetterCase::kCapitalized: {
      const std::size_t first = FirstCharacterBytes(out);
      std::string head = out.substr(0, first);
      ChangeCase(head, 0, true);
      ChangeCase(out, first, false);
      out.replace(0, first, head);
      break;
    }
  }
  return out;
}

std::vector<std::string> VocabularyEntries(const Vocabulary& vocabulary, LetterCase letter_case) {
  std::vector<std::string> out;
  out.reserve(vocabulary.entries.size());
  for (const std::string& entry : vocabulary.entries) {
    out.push_back(ApplyLetterCase(entry, letter_case));
  }
  return out;
}

OutsideValues ValuesOutside(const RawColumn& raw, const ColumnSchema& column,
                            const std::vector<std::string>& categories, std::size_t limit) {
  OutsideValues out;
  std::vector<std::pair<std::string_view, std::uint64_t>> outside;
  if (column.is_numeric()) {
    std::unordered_set<double> listed;
    for (const std::string& category : categories) {
      if (const auto value = ParseNumericCell(category, column)) listed.insert(*value);
    }
    for (std::size_t k = 0; k < raw.dictionary.size(); ++k) {
      const auto value = ParseNumericCell(raw.dictionary[k], column);
      if (!value) continue;  // does not parse: read as missing, listed as a failed value
      if (listed.count(*value) == 0) outside.emplace_back(raw.dictionary[k], raw.counts[k]);
    }
  } else {
    const std::unordered_set<std::string_view> listed(categories.begin(), categories.end());
    for (std::size_t k = 0; k < raw.dictionary.size(); ++k) {
      if (listed.count(raw.dictionary[k]) == 0) {
        outside.emplace_back(raw.dictionary[k], raw.counts[k]);
      }
    }
  }
  out.distinct = outside.size();
  for (const auto& value : outside) out.cells += value.second;
  const std::size_t n = std::min(limit, outside.size());
  std::partial_sort(outside.begin(), outside.begin() + static_cast<std::ptrdiff_t>(n),
                    outside.end(), [](const auto& a, const auto& b) {
                      return a.second != b.second ? a.second > b.second : a.first < b.first;
                    });
  for (std::size_t i = 0; i < n; ++i) out.values.emplace_back(std::string(outside[i].first), outside[i].second);
  return out;
}

std::vector<VocabularyMatch> MatchVocabularies(const RawColumn& raw, const ColumnSchema& column) {
  std::vector<VocabularyMatch> matches;
  const bool integer = column.type == DataType::kInteger && column.categorical;
  if (column.type != DataType::kString && !integer) return matches;
  std::uint64_t cells = 0;
  for (std::uint64_t count : raw.counts) cells += count;
  if (integer) {
    cells = 0;
    for (std::size_t k = 0; k < raw.dictionary.size(); ++k) {
      if (ParseNumericCell(raw.dictionary[k], column)) cells += raw.counts[k];
    }
  }
  if (cells == 0) return matches;
  const auto allowed_cells =
      static_cast<std::uint64_t>(std::floor(kVocabularyOutsideShare * static_cast<double>(cells)));
  constexpr std::array<LetterCase, 4> kCases = {LetterCase::kAsListed, LetterCase::kUpper,
                                                LetterCase::kLower, LetterCase::kCapitalized};
  for (const Vocabulary& vocabulary : PublicVocabularies()) {
    if (raw.dictionary.size() > vocabulary.entries.size() + kVocabularyOutsideDistinct) continue;
    // An Integer column writes canonical integers: it can only hold a vocabulary of them.
    if (integer && !std::all_of(vocabulary.entries.begin(), vocabulary.entries.end(),
                                [](const std::string& entry) {
                                  const NumberText info = ClassifyNumberText(entry);
                                  return info.kind == NumberText::Kind::kInteger &&
                                         info.exact_integer && !info.leading_zero &&
                                         entry.find_first_of(" +\t") == std::string::npos;
                                })) {
      continue;
    }
    std::vector<std::vector<std::string>> tried;
    for (LetterCase letter_case : kCases) {
      if (integer && letter_case != LetterCase::kAsListed) break;
      std::vector<std::string> entries = VocabularyEntries(vocabulary, letter_case);
      if (std::find(tried.begin(), tried.end(), entries) != tried.end()) continue;
      const OutsideValues outside = ValuesOutside(raw, column, entries);
      tried.push_back(std::move(entries));
      if (outside.cells > allowed_cells || outside.distinct > kVocabularyOutsideDistinct ||
          outside.cells >= cells) {
        continue;
      }
      VocabularyMatch match;
      match.vocabulary = &vocabulary;
      match.letter_case = letter_case;
      match.outside_cells = outside.cells;
      match.matched_cells = cells - outside.cells;
      match.outside_values = outside.values;
      match.outside_distinct = outside.distinct;
      match.observed_entries = ObservedEntries(raw, column, tried.back());
      matches.push_back(std::move(match));
    }
  }
  std::stable_sort(matches.begin(), matches.end(),
                   [](const VocabularyMatch& a, const VocabularyMatch& b) {
                     if (a.outside_cells != b.outside_cells) return a.outside_cells < b.outside_cells;
                     return a.vocabulary->entries.size() < b.vocabulary->entries.size();
                   });
  return matches;
}

}  // namespace deniable

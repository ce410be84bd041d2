//! Which country a phone number (E.164) belongs to, for the SMS country allow-list
//! (`ENCORE_SMS_COUNTRIES`). A calling-code table, longest prefix first, without a
//! dependency: good enough to decide where a text may go, not a full numbering plan.
//!
//! Shared calling codes, honestly: +1 (NANP) is told apart by area code: Canada and the
//! Caribbean and Pacific members have their own lists, and every other +1 number counts
//! as `US` (so a Canadian area code opened after this table was written counts as US
//! until the table learns it). +7 is `RU` except +76/+77 (`KZ`); +44 is `GB` except the
//! Crown Dependencies (`GG`, `JE`, `IM`); +590 is `GP` (Saint-Barthélemy and Saint-Martin
//! share its numbers); a few more small territories are listed by their prefix.
//! Calling codes in the allow-list (`+44`, `1`) match by prefix, whatever the country.

/// Calling-code prefixes (digits after `+`) and the ISO 3166-1 alpha-2 code they dial.
#[rustfmt::skip]
const PREFIXES: &[(&str, &str)] = &[
    // North American Numbering Plan: +1 and the area code.
    ("1", "US"),
    ("1204", "CA"), ("1226", "CA"), ("1236", "CA"), ("1249", "CA"), ("1250", "CA"),
    ("1257", "CA"), ("1263", "CA"), ("1289", "CA"), ("1306", "CA"), ("1343", "CA"),
    ("1354", "CA"), ("1365", "CA"), ("1367", "CA"), ("1368", "CA"), ("1382", "CA"),
    ("1387", "CA"), ("1403", "CA"), ("1416", "CA"), ("1418", "CA"), ("1428", "CA"),
    ("1431", "CA"), ("1437", "CA"), ("1438", "CA"), ("1450", "CA"), ("1460", "CA"),
    ("1468", "CA"), ("1474", "CA"), ("1506", "CA"), ("1514", "CA"), ("1519", "CA"),
    ("1548", "CA"), ("1579", "CA"), ("1581", "CA"), ("1584", "CA"), ("1587", "CA"),
    ("1600", "CA"), ("1604", "CA"), ("1613", "CA"), ("1622", "CA"), ("1639", "CA"),
    ("1647", "CA"), ("1672", "CA"), ("1683", "CA"), ("1705", "CA"), ("1709", "CA"),
    ("1742", "CA"), ("1753", "CA"), ("1778", "CA"), ("1780", "CA"), ("1782", "CA"),
    ("1807", "CA"), ("1819", "CA"), ("1825", "CA"), ("1867", "CA"), ("1873", "CA"),
    ("1879", "CA"), ("1902", "CA"), ("1905", "CA"), ("1942", "CA"),
    ("1242", "BS"), ("1246", "BB"), ("1264", "AI"), ("1268", "AG"), ("1284", "VG"),
    ("1340", "VI"), ("1345", "KY"), ("1441", "BM"), ("1473", "GD"), ("1649", "TC"),
    ("1658", "JM"), ("1664", "MS"), ("1670", "MP"), ("1671", "GU"), ("1684", "AS"),
    ("1721", "SX"), ("1758", "LC"), ("1767", "DM"), ("1784", "VC"), ("1787", "PR"),
    ("1809", "DO"), ("1829", "DO"), ("1849", "DO"), ("1868", "TT"), ("1869", "KN"),
    ("1876", "JM"), ("1939", "PR"),
    // Zone 2: Africa and the North Atlantic.
    ("20", "EG"), ("211", "SS"), ("212", "MA"), ("2125288", "EH"), ("2125289", "EH"),
    ("213", "DZ"), ("216", "TN"), ("218", "LY"), ("220", "GM"), ("221", "SN"),
    ("222", "MR"), ("223", "ML"), ("224", "GN"), ("225", "CI"), ("226", "BF"),
    ("227", "NE"), ("228", "TG"), ("229", "BJ"), ("230", "MU"), ("231", "LR"),
    ("232", "SL"), ("233", "GH"), ("234", "NG"), ("235", "TD"), ("236", "CF"),
    ("237", "CM"), ("238", "CV"), ("239", "ST"), ("240", "GQ"), ("241", "GA"),
    ("242", "CG"), ("243", "CD"), ("244", "AO"), ("245", "GW"), ("246", "IO"),
    ("247", "SH"), ("248", "SC"), ("249", "SD"), ("250", "RW"), ("251", "ET"),
    ("252", "SO"), ("253", "DJ"), ("254", "KE"), ("255", "TZ"), ("256", "UG"),
    ("257", "BI"), ("258", "MZ"), ("260", "ZM"), ("261", "MG"), ("262", "RE"),
    ("262269", "YT"), ("262639", "YT"), ("263", "ZW"), ("264", "NA"), ("265", "MW"),
    ("266", "LS"), ("267", "BW"), ("268", "SZ"), ("269", "KM"), ("27", "ZA"),
    ("290", "SH"), ("291", "ER"), ("297", "AW"), ("298", "FO"), ("299", "GL"),
    // Zones 3 and 4: Europe.
    ("30", "GR"), ("31", "NL"), ("32", "BE"), ("33", "FR"), ("34", "ES"), ("350", "GI"),
    ("351", "PT"), ("352", "LU"), ("353", "IE"), ("354", "IS"), ("355", "AL"),
    ("356", "MT"), ("357", "CY"), ("358", "FI"), ("35818", "AX"), ("359", "BG"),
    ("36", "HU"), ("370", "LT"), ("371", "LV"), ("372", "EE"), ("373", "MD"),
    ("374", "AM"), ("375", "BY"), ("376", "AD"), ("377", "MC"), ("378", "SM"),
    ("379", "VA"), ("380", "UA"), ("381", "RS"), ("382", "ME"), ("383", "XK"),
    ("385", "HR"), ("386", "SI"), ("387", "BA"), ("389", "MK"), ("39", "IT"),
    ("3906698", "VA"), ("40", "RO"), ("41", "CH"), ("420", "CZ"), ("421", "SK"),
    ("423", "LI"), ("43", "AT"), ("44", "GB"), ("441481", "GG"), ("441534", "JE"),
    ("441624", "IM"), ("45", "DK"), ("46", "SE"), ("47", "NO"), ("4779", "SJ"),
    ("48", "PL"), ("49", "DE"),
    // Zone 5: Latin America.
    ("500", "FK"), ("501", "BZ"), ("502", "GT"), ("503", "SV"), ("504", "HN"),
    ("505", "NI"), ("506", "CR"), ("507", "PA"), ("508", "PM"), ("509", "HT"),
    ("51", "PE"), ("52", "MX"), ("53", "CU"), ("54", "AR"), ("55", "BR"), ("56", "CL"),
    ("57", "CO"), ("58", "VE"), ("590", "GP"), ("591", "BO"), ("592", "GY"),
    ("593", "EC"), ("594", "GF"), ("595", "PY"), ("596", "MQ"), ("597", "SR"),
    ("598", "UY"), ("599", "CW"), ("5993", "BQ"), ("5994", "BQ"), ("5997", "BQ"),
    // Zone 6: South-East Asia and Oceania.
    ("60", "MY"), ("61", "AU"), ("6189162", "CC"), ("6189164", "CX"), ("62", "ID"),
    ("63", "PH"), ("64", "NZ"), ("65", "SG"), ("66", "TH"), ("670", "TL"),
    ("672", "NF"), ("673", "BN"), ("674", "NR"), ("675", "PG"), ("676", "TO"),
    ("677", "SB"), ("678", "VU"), ("679", "FJ"), ("680", "PW"), ("681", "WF"),
    ("682", "CK"), ("683", "NU"), ("685", "WS"), ("686", "KI"), ("687", "NC"),
    ("688", "TV"), ("689", "PF"), ("690", "TK"), ("691", "FM"), ("692", "MH"),
    // Zone 7: Russia and Kazakhstan.
    ("7", "RU"), ("76", "KZ"), ("77", "KZ"),
    // Zone 8: East Asia.
    ("81", "JP"), ("82", "KR"), ("84", "VN"), ("850", "KP"), ("852", "HK"),
    ("853", "MO"), ("855", "KH"), ("856", "LA"), ("86", "CN"), ("880", "BD"),
    ("886", "TW"),
    // Zone 9: West, South and Central Asia.
    ("90", "TR"), ("91", "IN"), ("92", "PK"), ("93", "AF"), ("94", "LK"), ("95", "MM"),
    ("960", "MV"), ("961", "LB"), ("962", "JO"), ("963", "SY"), ("964", "IQ"),
    ("965", "KW"), ("966", "SA"), ("967", "YE"), ("968", "OM"), ("970", "PS"),
    ("971", "AE"), ("972", "IL"), ("973", "BH"), ("974", "QA"), ("975", "BT"),
    ("976", "MN"), ("977", "NP"), ("98", "IR"), ("992", "TJ"), ("993", "TM"),
    ("994", "AZ"), ("995", "GE"), ("996", "KG"), ("998", "UZ"),
];

/// The country of an E.164 number (`+447700900123` → `GB`), by its longest known prefix.
pub fn country_of(number: &str) -> Option<&'static str> {
    let digits = number.strip_prefix('+').unwrap_or(number);
    PREFIXES
        .iter()
        .filter(|(prefix, _)| digits.starts_with(prefix))
        .max_by_key(|(prefix, _)| prefix.len())
        .map(|(_, country)| *country)
}

fn is_known_country(code: &str) -> bool {
    PREFIXES.iter().any(|(_, country)| *country == code)
}

/// Where SMS may go: every country when empty, else the listed ISO country codes and
/// calling-code prefixes.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AllowList {
    countries: Vec<String>,
    calling_codes: Vec<String>,
}

impl AllowList {
    /// `GB,BR,ES,US` or calling codes (`+44`, `1`), comma or space separated; empty
    /// allows every country. An unknown entry is an error (a typo must not lock every
    /// number out, or let every one in).
    pub fn parse(value: &str) -> anyhow::Result<Self> {
        let mut list = Self::default();
        for entry in value
            .split([',', ' ', ';'])
            .map(str::trim)
            .filter(|e| !e.is_empty())
        {
            let digits = entry.strip_prefix('+').unwrap_or(entry);
            if !digits.is_empty() && digits.len() <= 7 && digits.bytes().all(|b| b.is_ascii_digit())
            {
                list.calling_codes.push(digits.to_owned());
            } else if entry.len() == 2 && is_known_country(&entry.to_ascii_uppercase()) {
                list.countries.push(entry.to_ascii_uppercase());
            } else {
                anyhow::bail!(
                    "ENCORE_SMS_COUNTRIES: {entry:?} is neither an ISO country code (GB) nor a calling code (+44)"
                );
            }
        }
        Ok(list)
    }

    pub fn allows_all(&self) -> bool {
        self.countries.is_empty() && self.calling_codes.is_empty()
    }

    /// Whether an SMS may go to this E.164 number.
    pub fn allows(&self, number: &str) -> bool {
        if self.allows_all() {
            return true;
        }
        let digits = number.strip_prefix('+').unwrap_or(number);
        self.calling_codes
            .iter()
            .any(|code| digits.starts_with(code.as_str()))
            || country_of(number).is_some_and(|country| self.countries.iter().any(|c| c == country))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_map_to_countries_by_their_longest_prefix() {
        assert_eq!(country_of("+447700900123"), Some("GB"));
        assert_eq!(country_of("+441534123456"), Some("JE"));
        assert_eq!(country_of("+5511987654321"), Some("BR"));
        assert_eq!(country_of("+34612345678"), Some("ES"));
        assert_eq!(country_of("+79161234567"), Some("RU"));
        assert_eq!(country_of("+77012345678"), Some("KZ"));
        assert_eq!(country_of("+8613812345678"), Some("CN"));
        assert_eq!(country_of("+989121234567"), Some("IR"));
        assert_eq!(country_of("+8091234567"), None, "no such code");
    }

    #[test]
    fn nanp_numbers_are_told_apart_by_area_code() {
        assert_eq!(country_of("+12125550100"), Some("US"));
        assert_eq!(country_of("+14165550100"), Some("CA"));
        assert_eq!(country_of("+18765550100"), Some("JM"));
        assert_eq!(country_of("+17875550100"), Some("PR"));
        let us = AllowList::parse("US").unwrap();
        assert!(us.allows("+12125550100"));
        assert!(!us.allows("+14165550100"), "Toronto is not in the US");
        assert!(!us.allows("+18765550100"));
        let nanp = AllowList::parse("+1").unwrap();
        assert!(nanp.allows("+14165550100") && nanp.allows("+18765550100"));
    }

    #[test]
    fn the_allow_list_takes_countries_and_calling_codes_and_refuses_typos() {
        let list = AllowList::parse("gb, BR;+34 351").unwrap();
        assert!(list.allows("+447700900123"));
        assert!(list.allows("+5511987654321"));
        assert!(list.allows("+34612345678"));
        assert!(list.allows("+351912345678"));
        assert!(!list.allows("+12125550100"));
        assert!(!list.allows("+441534123456"), "Jersey is not GB");
        assert!(AllowList::parse("").unwrap().allows("+12125550100"));
        assert!(AllowList::parse("UK").is_err());
        assert!(AllowList::parse("England").is_err());
    }
}

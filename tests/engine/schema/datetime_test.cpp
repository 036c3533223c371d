// SPDX-License-Identifier: Apache-2.0
#include "engine/schema/datetime.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <set>

namespace deniable {
namespace {

// Epoch seconds computed independently with Python's calendar.timegm.
constexpr double kInstant = 1488722829;      // 2017-03-05 14:07:09
constexpr double kMidnight = 1488672000;     // 2017-03-05 00:00:00
constexpr double kMinute = 1488722820;       // 2017-03-05 14:07:00
constexpr double kMonthStart = 1488326400;   // 2017-03-01 00:00:00
constexpr double kTimeOfDay = 50829;         // 14:07:09 on 1970-01-01
constexpr double kTimeOfDayMinute = 50820;   // 14:07

struct Canonical {
  const char* text;
  double seconds;
};

// One canonical text per known format, all for 2017-03-05 14:07:09.25 (truncated to what the
// format holds).
const std::map<std::string, Canonical>& CanonicalExamples() {
  static const std::map<std::string, Canonical> kExamples = {
      {"%Y-%m-%d", {"2017-03-05", kMidnight}},
      {"%Y-%m-%d %H:%M:%S", {"2017-03-05 14:07:09", kInstant}},
      {"%Y-%m-%dT%H:%M:%S", {"2017-03-05T14:07:09", kInstant}},
      {"%Y-%m-%d %H:%M", {"2017-03-05 14:07", kMinute}},
      {"%Y-%m-%dT%H:%M", {"2017-03-05T14:07", kMinute}},
      {"%Y-%m-%d %H:%M:%S.%f", {"2017-03-05 14:07:09.250000", kInstant + 0.25}},
      {"%Y-%m-%dT%H:%M:%S.%f", {"2017-03-05T14:07:09.250000", kInstant + 0.25}},
      {"%Y-%m-%dT%H:%M:%S%z", {"2017-03-05T14:07:09Z", kInstant}},
      {"%Y-%m-%dT%H:%M:%S.%f%z", {"2017-03-05T14:07:09.250000Z", kInstant + 0.25}},
      {"%Y-%m-%d %H:%M:%S%z", {"2017-03-05 14:07:09Z", kInstant}},
      {"%Y-%m-%d %H:%M:%S.%f%z", {"2017-03-05 14:07:09.250000Z", kInstant + 0.25}},
      {"%Y-%m-%dT%H:%M%z", {"2017-03-05T14:07Z", kMinute}},
      {"%Y-%m", {"2017-03", kMonthStart}},
      {"%m/%d/%Y", {"03/05/2017", kMidnight}},
      {"%m/%d/%Y %H:%M:%S", {"03/05/2017 14:07:09", kInstant}},
      {"%m/%d/%Y %H:%M", {"03/05/2017 14:07", kMinute}},
      {"%m/%d/%Y %I:%M:%S %p", {"03/05/2017 02:07:09 PM", kInstant}},
      {"%m/%d/%Y %I:%M %p", {"03/05/2017 02:07 PM", kMinute}},
      {"%-m/%-d/%Y", {"3/5/2017", kMidnight}},
      {"%-m/%-d/%Y %-H:%M:%S", {"3/5/2017 14:07:09", kInstant}},
      {"%-m/%-d/%Y %-H:%M", {"3/5/2017 14:07", kMinute}},
      {"%-m/%-d/%Y %-I:%M:%S %p", {"3/5/2017 2:07:09 PM", kInstant}},
      {"%-m/%-d/%Y %-I:%M %p", {"3/5/2017 2:07 PM", kMinute}},
      {"%d/%m/%Y", {"05/03/2017", kMidnight}},
      {"%d/%m/%Y %H:%M:%S", {"05/03/2017 14:07:09", kInstant}},
      {"%d/%m/%Y %H:%M", {"05/03/2017 14:07", kMinute}},
      {"%-d/%-m/%Y", {"5/3/2017", kMidnight}},
      {"%-d/%-m/%Y %-H:%M:%S", {"5/3/2017 14:07:09", kInstant}},
      {"%-d/%-m/%Y %-H:%M", {"5/3/2017 14:07", kMinute}},
      {"%d.%m.%Y", {"05.03.2017", kMidnight}},
      {"%d.%m.%Y %H:%M:%S", {"05.03.2017 14:07:09", kInstant}},
      {"%d.%m.%Y %H:%M", {"05.03.2017 14:07", kMinute}},
      {"%d-%m-%Y", {"05-03-2017", kMidnight}},
      {"%d-%m-%Y %H:%M:%S", {"05-03-2017 14:07:09", kInstant}},
      {"%m/%d/%y", {"03/05/17", kMidnight}},
      {"%-m/%-d/%y", {"3/5/17", kMidnight}},
      {"%d/%m/%y", {"05/03/17", kMidnight}},
      {"%d.%m.%y", {"05.03.17", kMidnight}},
      {"%Y/%m/%d", {"2017/03/05", kMidnight}},
      {"%Y/%m/%d %H:%M:%S", {"2017/03/05 14:07:09", kInstant}},
      {"%Y/%m/%d %H:%M", {"2017/03/05 14:07", kMinute}},
      {"%d-%b-%Y", {"05-Mar-2017", kMidnight}},
      {"%d-%b-%Y %H:%M:%S", {"05-Mar-2017 14:07:09", kInstant}},
      {"%d-%b-%y", {"05-Mar-17", kMidnight}},
      {"%d %b %Y", {"05 Mar 2017", kMidnight}},
      {"%-d %b %Y", {"5 Mar 2017", kMidnight}},
      {"%b %d, %Y", {"Mar 05, 2017", kMidnight}},
      {"%b %-d, %Y", {"Mar 5, 2017", kMidnight}},
      {"%H:%M:%S", {"14:07:09", kTimeOfDay}},
      {"%H:%M", {"14:07", kTimeOfDayMinute}},
      {"%H:%M:%S.%f", {"14:07:09.250000", kTimeOfDay + 0.25}},
      {"%I:%M:%S %p", {"02:07:09 PM", kTimeOfDay}},
      {"%I:%M %p", {"02:07 PM", kTimeOfDayMinute}},
      {"%-I:%M %p", {"2:07 PM", kTimeOfDayMinute}},
  };
  return kExamples;
}

TEST(DateTimeTest, EveryKnownFormatParsesAndFormatsItsCanonicalText) {
  const auto& examples = CanonicalExamples();
  std::set<std::string> known(KnownDateTimeFormats().begin(), KnownDateTimeFormats().end());
  EXPECT_EQ(known.size(), KnownDateTimeFormats().size()) << "a known format is listed twice";
  for (const std::string& format : KnownDateTimeFormats()) {
    SCOPED_TRACE(format);
    EXPECT_TRUE(IsValidDateTimeFormat(format));
    const auto example = examples.find(format);
    ASSERT_NE(example, examples.end()) << "add a canonical example for the new format";
    const auto seconds = ParseDateTime(example->second.text, format);
    ASSERT_TRUE(seconds.has_value());
    EXPECT_EQ(*seconds, example->second.seconds);
    std::string text;
    FormatDateTime(*seconds, format, text);
    EXPECT_EQ(text, example->second.text);
  }
  EXPECT_EQ(examples.size(), known.size()) << "an example names a format that is not known";
}

TEST(DateTimeTest, RejectsInvalidCalendarDatesAndTimes) {
  const std::string f = "%Y-%m-%d %H:%M:%S";
  EXPECT_FALSE(ParseDateTime("2017-02-30 00:00:00", f));
  EXPECT_FALSE(ParseDateTime("2017-02-29 00:00:00", f));  // 2017 is not a leap year
  EXPECT_FALSE(ParseDateTime("1900-02-29 00:00:00", f));  // century, not divisible by 400
  EXPECT_FALSE(ParseDateTime("2017-04-31 00:00:00", f));
  EXPECT_FALSE(ParseDateTime("2017-13-01 00:00:00", f));
  EXPECT_FALSE(ParseDateTime("2017-00-10 00:00:00", f));
  EXPECT_FALSE(ParseDateTime("2017-01-00 00:00:00", f));
  EXPECT_FALSE(ParseDateTime("2017-01-01 24:00:00", f));
  EXPECT_FALSE(ParseDateTime("2017-01-01 23:60:00", f));
  EXPECT_FALSE(ParseDateTime("2017-01-01 23:59:60", f));  // leap seconds are not represented
  EXPECT_FALSE(ParseDateTime("13:00 PM", "%I:%M %p"));
  EXPECT_FALSE(ParseDateTime("00:00 AM", "%I:%M %p"));
  EXPECT_FALSE(ParseDateTime("05-Mrz-2017", "%d-%b-%Y"));
}

TEST(DateTimeTest, AcceptsLeapDays) {
  EXPECT_EQ(ParseDateTime("2016-02-29", "%Y-%m-%d"), 1456704000.0);
  EXPECT_EQ(ParseDateTime("2000-02-29 12:00:00", "%Y-%m-%d %H:%M:%S"), 951825600.0);
  EXPECT_EQ(ParseDateTime("2000-03-01", "%Y-%m-%d"), 951868800.0);
}

TEST(DateTimeTest, RequiresTheWholeTextToMatch) {
  EXPECT_FALSE(ParseDateTime("2017-03-05x", "%Y-%m-%d"));
  EXPECT_FALSE(ParseDateTime(" 2017-03-05", "%Y-%m-%d"));
  EXPECT_FALSE(ParseDateTime("2017-03-05", "%Y-%m-%d %H:%M"));
  EXPECT_FALSE(ParseDateTime("17-03-05", "%Y-%m-%d"));       // %Y needs 4 digits
  EXPECT_FALSE(ParseDateTime("3/05/2017", "%m/%d/%Y"));      // %m needs 2 digits
  EXPECT_FALSE(ParseDateTime("2017-03-05T14:07", "%Y-%m-%d %H:%M"));
  EXPECT_FALSE(ParseDateTime("", "%Y"));
}

TEST(DateTimeTest, NegativeEpochsBefore1970) {
  const std::string f = "%Y-%m-%d %H:%M:%S";
  EXPECT_EQ(ParseDateTime("1969-12-31 23:59:59", f), -1.0);
  EXPECT_EQ(ParseDateTime("1900-02-28 00:00:00", f), -2203977600.0);
  EXPECT_EQ(ParseDateTime("1600-01-01 00:00:00", f), -11676096000.0);
  EXPECT_EQ(ParseDateTime("0001-01-01 00:00:00", f), -62135596800.0);
  EXPECT_EQ(ParseDateTime("9999-12-31 23:59:59", f), 253402300799.0);
  for (const char* text : {"1969-12-31 23:59:59", "1900-02-28 00:00:00", "1600-01-01 00:00:00",
                           "0001-01-01 00:00:00", "9999-12-31 23:59:59", "1969-06-01 07:08:09"}) {
    std::string out;
    FormatDateTime(*ParseDateTime(text, f), f, out);
    EXPECT_EQ(out, text);
  }
}

TEST(DateTimeTest, TwoDigitYearsFollowThePosixPivot) {
  EXPECT_EQ(ParseDateTime("01/01/68", "%m/%d/%y"), 3092601600.0);   // 2068
  EXPECT_EQ(ParseDateTime("01/01/69", "%m/%d/%y"), -31536000.0);    // 1969
  EXPECT_EQ(ParseDateTime("03/05/00", "%m/%d/%y"), ParseDateTime("2000-03-05", "%Y-%m-%d"));
  std::string out;
  FormatDateTime(-31536000.0, "%d.%m.%y", out);
  EXPECT_EQ(out, "01.01.69");
}

TEST(DateTimeTest, DaysRoundTripOverEightCenturies) {
  // Every day from 1559 to 2380: format then parse gives the same day back.
  std::string text;
  for (std::int64_t day = -150000; day <= 150000; ++day) {
    text.clear();
    FormatDateTime(static_cast<double>(day) * 86400, "%Y-%m-%d", text);
    const auto back = ParseDateTime(text, "%Y-%m-%d");
    ASSERT_TRUE(back.has_value()) << text;
    ASSERT_EQ(*back, static_cast<double>(day) * 86400) << text;
  }
}

TEST(DateTimeTest, FractionalSeconds) {
  const std::string f = "%H:%M:%S.%f";
  EXPECT_EQ(ParseDateTime("00:00:01.5", f), 1.5);
  EXPECT_EQ(ParseDateTime("00:00:01.123456789", f), 1.0 + 123456 * 1e-6);  // to microseconds
  EXPECT_FALSE(ParseDateTime("00:00:01.", f));
  EXPECT_FALSE(ParseDateTime("00:00:01.1234567890", f));  // at most 9 digits
  EXPECT_EQ(ParseDateTime("00:00:01.250", "%H:%M:%S.%3f"), 1.25);
  EXPECT_FALSE(ParseDateTime("00:00:01.25", "%H:%M:%S.%3f"));
  std::string out;
  FormatDateTime(1.25, "%H:%M:%S.%3f", out);
  EXPECT_EQ(out, "00:00:01.250");
  out.clear();
  FormatDateTime(1.25, "%H:%M:%S.%9f", out);
  EXPECT_EQ(out, "00:00:01.250000000");
  out.clear();
  FormatDateTime(0.9999996, f, out);  // the fraction rounds up to the next whole second
  EXPECT_EQ(out, "00:00:01.000000");
  out.clear();
  FormatDateTime(-0.5, "%Y-%m-%d %H:%M:%S.%f", out);
  EXPECT_EQ(out, "1969-12-31 23:59:59.500000");
}

TEST(DateTimeTest, UtcOffsetsConvertToUtc) {
  const std::string f = "%Y-%m-%dT%H:%M:%S%z";
  EXPECT_EQ(ParseDateTime("2017-03-05T14:07:09+02:00", f), kInstant - 7200);
  EXPECT_EQ(ParseDateTime("2017-03-05T14:07:09-0530", f), kInstant + 19800);
  EXPECT_EQ(ParseDateTime("2017-03-05T14:07:09Z", f), kInstant);
  EXPECT_FALSE(ParseDateTime("2017-03-05T14:07:09+2:00", f));
  EXPECT_FALSE(ParseDateTime("2017-03-05T14:07:09+24:00", f));
  EXPECT_FALSE(ParseDateTime("2017-03-05T14:07:09", f));
  DateTimeParseDetails details;
  ASSERT_TRUE(ParseDateTime("2017-03-05T14:07:09+02:00", f, &details));
  EXPECT_EQ(details.offset_text, "+02:00");
  EXPECT_EQ(details.fraction_digits, -1);
}

TEST(DateTimeTest, TwelveHourClockAndMonthNamesIgnoreCase) {
  EXPECT_EQ(ParseDateTime("12:00 AM", "%I:%M %p"), 0.0);
  EXPECT_EQ(ParseDateTime("12:00 pm", "%I:%M %p"), 43200.0);
  EXPECT_EQ(ParseDateTime("11:59 Pm", "%I:%M %p"), 43140.0 + 43200.0);
  EXPECT_EQ(ParseDateTime("05-MAR-2017", "%d-%b-%Y"), kMidnight);
  std::string out;
  FormatDateTime(0, "%I:%M %p", out);
  EXPECT_EQ(out, "12:00 AM");
}

TEST(DateTimeTest, UnpaddedDirectivesAcceptOneOrTwoDigits) {
  EXPECT_EQ(ParseDateTime("03/05/2017", "%-m/%-d/%Y"), kMidnight);
  EXPECT_EQ(ParseDateTime("3/5/2017", "%-m/%-d/%Y"), kMidnight);
  EXPECT_EQ(ParseDateTime("12/25/2017 9:05", "%-m/%-d/%Y %-H:%M"),
            ParseDateTime("2017-12-25 09:05", "%Y-%m-%d %H:%M"));
}

TEST(DateTimeTest, LiteralsAndPercent) {
  EXPECT_EQ(ParseDateTime("day 2017-03-05 at 100%", "day %Y-%m-%d at 100%%"), kMidnight);
  EXPECT_EQ(ParseDateTime("14:07:09", "%T"), kTimeOfDay);
  std::string out;
  FormatDateTime(kInstant, "%Y%m%d-%T %%", out);
  EXPECT_EQ(out, "20170305-14:07:09 %");
}

TEST(DateTimeTest, FormatFloorsToWholeSecondsAndSkipsNonFinite) {
  std::string out;
  FormatDateTime(kInstant + 0.999, "%Y-%m-%d %H:%M:%S", out);
  EXPECT_EQ(out, "2017-03-05 14:07:09");
  out.clear();
  FormatDateTime(kInstant, "%Y-%m-%d", out);
  EXPECT_EQ(out, "2017-03-05");  // an afternoon stays on its day
  out.clear();
  FormatDateTime(std::nan(""), "%Y", out);
  FormatDateTime(INFINITY, "%Y", out);
  FormatDateTime(3e12, "%Y", out);
  EXPECT_EQ(out, "");
  FormatDateTime(-62135596800.0 - 86400, "%Y-%m-%d", out);  // year 0 (1 BC)
  EXPECT_EQ(out, "0000-12-31");
}

TEST(DateTimeTest, ValidatesFormats) {
  for (const char* format : {"%Y", "%H:%M", "%I %p", "%-d.%-m.%Y", "%3f", "x%Yx", "%T%z"}) {
    EXPECT_TRUE(IsValidDateTimeFormat(format)) << format;
  }
  for (const char* format : {"", "abc", "%%", "%Q", "%", "%Y-%", "%I:%M", "%H %p", "%-Y", "%3d",
                             "%0f", "%-f"}) {
    EXPECT_FALSE(IsValidDateTimeFormat(format)) << format;
  }
  EXPECT_FALSE(ParseDateTime("2017", "%Q"));
  EXPECT_FALSE(ParseDateTime("5", "%I"));  // %I without %p
}

TEST(DateTimeTest, CalendarHelpers) {
  EXPECT_EQ(DaysFromCivil(1970, 1, 1), 0);
  EXPECT_EQ(DaysFromCivil(2000, 3, 1), 11017);
  EXPECT_EQ(DaysFromCivil(1969, 12, 31), -1);
  EXPECT_TRUE(IsLeapYear(2000));
  EXPECT_TRUE(IsLeapYear(2024));
  EXPECT_FALSE(IsLeapYear(1900));
  EXPECT_FALSE(IsLeapYear(2023));
  EXPECT_EQ(DaysInMonth(2023, 2), 28);
  EXPECT_EQ(DaysInMonth(2024, 2), 29);
  EXPECT_EQ(DaysInMonth(2024, 12), 31);
  EXPECT_EQ(DaysInMonth(2024, 11), 30);
}

}  // namespace
}  // namespace deniable

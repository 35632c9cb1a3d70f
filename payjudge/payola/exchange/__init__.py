"""Exchange Payola's pure engine (docs/exchange.md): the accounts, the sealed call market
of each company, dividends, CEO elections, and worths that decide a company's income.

Like the auction, every function takes its seed and returns values: no I/O, no clock."""

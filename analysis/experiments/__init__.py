"""Design experiments on card files, built on the questions' measures: compare two
decks (:mod:`.compare`), an ally's causal value (:mod:`.card_value`), one field swept
over values (:mod:`.sweep`), a search towards targets (:mod:`.tune`) and the edits
that fix the report's verdicts (:mod:`.advise`)."""

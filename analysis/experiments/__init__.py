"""Design experiments on card files, built on the questions' measures: compare two
decks (:mod:`.compare`), an ally's causal value (:mod:`.card_value`), one field swept
over values (:mod:`.sweep`) and a search towards targets (:mod:`.tune`)."""

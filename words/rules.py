"""Rule options and rulebooks in plain, translatable words (docs/players/rules.md): the labels,
choices and help the game settings form, the rules panel and the player pages show, one
entry per option engine.options declares (tests/words/test_rule_words.py holds them
complete: a new option without its words fails there)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

# Rule options of docs/players/rules.md in plain words: key -> (label, {value: words}) for choices.
RULE_LABELS = {
    "setup": _("Starting territories"),
    "initial_placement": _("Placing the starting armies"),
    "placement_batch": _("Armies per placement turn"),
    "initial_max_per_territory": _("Most armies on one territory during setup"),
    "card_values": _("Card set values"),
    "fixed_values": _("Fixed set values"),
    "card_territory_bonus": _("Bonus for traded cards showing your territories"),
    "occupy_minimum": _("Armies to move into a conquered territory"),
    "fortify": _("Fortifying"),
    "objective": _("How to win"),
    "capitals_to_win": _("Capitals needed to win"),
    "capital_collapse": _("A captured capital collapses its continent"),
    "neutral": _("Neutral army in a two-player game"),
    "neutral_reinforcement": _("The neutral's reinforcements"),
    "deadline_seconds": _("Time for each decision"),
    "max_missed_turns": _("Missed turns before a player is dropped"),
    "round_limit": _("Rounds before the game ends"),
    "dropped_seat": _("A player dropped for missed turns"),
    "fog": _("Fog of war"),
    "team_size": _("Teams"),
    "continent_bonus_after_round": _("A continent pays only once held for a whole round"),
    "max_cards": _("Most cards in a hand"),
    "elimination_trade_at": _("Cards taken in an elimination that force a trade at once"),
    "elimination_trade_when": _("Trading the cards taken in an elimination"),
    "forced_trade": _("Holding five cards or more"),
    "traded_cards": _("Traded cards"),
    "card_draw": _("The card for a conquest"),
    "cards": _("Cards"),
    "minimum_reinforcement": _("The minimum of 3 reinforcements"),
    "neutral_dice": _("The neutral's defence dice (two players)"),
    "capital_card_out": _("Capitals' territory cards leave the deck"),
    "play_order": _("Who plays first"),
}

# The rulebook presets (docs/players/rulebooks.md): rules.preset -> its name and
# what it changes, in plain words.
RULEBOOKS = {
    "czech": (_("The Czech rulebook"),
              _("Secret missions for three to six players, at most 4 armies a territory in "
                "setup, fixed set values (artillery 4, infantry 6, cavalry 8, one of each "
                "10), 2 more armies for each traded card showing your territory, fortifying "
                "to several neighbours, a continent pays after a whole round, at most 5 "
                "cards.")),
    "polish": (_("The Polish rulebook"),
               _("Capitals that collapse their continent and whose cards leave the deck, "
                 "fixed set values, 2 more armies for each traded card showing your "
                 "territory, traded cards under the pile, the card drawn before fortifying, "
                 "one forced set at five cards, an elimination's cards traded at the next "
                 "reinforcement, the opponent sets the neutral's dice.")),
    "encyclopedia": (_("The encyclopedia's rules"),
                     _("Territories claimed one by one in turn, a trade at once from five "
                       "cards after an elimination, and a fresh draw for who plays first "
                       "after setup.")),
    "howto": (_("The how-to article's rules"),
              _("The classic game, its territories claimed one by one in turn.")),
    "online": (_("The online game's rules"),
               _("Every starting army placed at random, no neutral with two players, one "
                 "army at least to occupy, no cards, and the minimum of 3 over the whole "
                 "reinforcement.")),
}

RULE_CHOICES = {
    "setup": {
        "deal": _("dealt out like cards"),
        "claim": _("claimed one by one in turn"),
        "random": _("dealt, and every starting army placed at random"),
    },
    "initial_placement": {
        "turns": _("in turns, a few armies at a time"),
        "simultaneous": _("all at once, in secret, by everyone together"),
    },
    "card_values": {
        "escalating": _("escalating: 4, 6, 8, 10, 12, 15, then 5 more each"),
        "fixed": _("fixed by the symbols"),
    },
    "card_territory_bonus": {
        "once": _("2 armies on one of them"),
        "each": _("2 armies on each of them"),
    },
    "occupy_minimum": {
        "dice": _("at least as many as the dice of the last roll"),
        "one": _("at least one"),
    },
    "fortify": {
        "adjacent": _("one move to a neighbouring territory"),
        "connected": _("one move along a chain of your territories"),
        "spread": _("from one territory to several of its neighbours"),
    },
    "objective": {
        "domination": _("conquer the world: be the last player standing"),
        "missions": _("secret missions"),
        "capitals": _("capitals"),
    },
    "capitals_to_win": {
        "table": _("by the table: 2 with 2–3 players, 3 with 4–5, 4 with 6"),
        "all": _("every capital in play"),
    },
    "neutral_reinforcement": {
        "opponent": _("placed by the other player"),
        "auto": _("spread automatically"),
        "borders": _("placed automatically on the mover's borders"),
    },
    "elimination_trade_when": {
        "immediately": _("at once, until four or fewer remain"),
        "next_reinforce": _("at the conqueror's next reinforcement"),
    },
    "forced_trade": {
        "until_below_5": _("trade until fewer than five remain"),
        "one_set": _("trade one set; more only by choice"),
    },
    "traded_cards": {
        "discard": _("put aside, shuffled back in when the pile runs out"),
        "bottom": _("go straight under the draw pile"),
    },
    "card_draw": {
        "end_of_turn": _("drawn at the end of the turn"),
        "before_fortify": _("drawn when the attack ends, before fortifying"),
    },
    "minimum_reinforcement": {
        "territories": _("for territories: at least 3, then continent bonuses on top"),
        "total": _("for the whole reinforcement, continent bonuses included"),
    },
    "neutral_dice": {
        "max": _("as many as possible"),
        "opponent": _("chosen by the player who is not attacking"),
    },
    "play_order": {
        "setup": _("the order drawn at the start plays on"),
        "redraw": _("drawn afresh after setup"),
    },
    "dropped_seat": {
        "neutral": _("leaves: their territories turn neutral"),
        "bot": _("is replaced by a computer player, who plays on in their place"),
    },
}

# What the create form says under an option (web.forms.game_settings).
RULE_HELP = {
    "initial_max_per_territory": _("Leave empty for no limit (the Czech rulebook says 4)."),
    "capital_collapse": _("The loser's armies on that continent are removed; the captor takes "
                          "each emptied territory with 1 army."),
    "fog": _("Each player sees only their own territories, their neighbours and "
             "their teammates'; everything is revealed at the end."),
    "team_size": _("Teams form in the order players join: with 4 players, the first and "
                   "third to join play the second and fourth. Not played with missions or "
                   "capitals."),
    "round_limit": _("Leave empty to play until someone wins. After this many rounds the "
                     "player holding the most territories wins."),
    "continent_bonus_after_round": _("A continent's bonus is paid only if you have held all of it since "
                                     "the start of your previous turn (the Czech rulebook)."),
    "max_cards": _("Leave empty for no limit (the Czech rulebook says 5). A card that "
                   "would go above it is traded at once."),
    "elimination_trade_at": _("Holding this many cards after taking a player's, the conqueror trades "
                              "at once until fewer than five remain (6; the encyclopedia says 5)."),
    "capital_card_out": _("Each capital's territory card is taken out of the deck (the Polish "
                          "rulebook)."),
}

# A switch or a number the create form offers as a list of choices: {value: words}.
FIELD_CHOICES = {
    "team_size": {1: _("no teams"), 2: _("teams of 2 (2 against 2, or 2v2v2)"),
                  3: _("teams of 3 (3 against 3)")},
    "cards": {True: _("played: a card for each turn with a conquest, sets for armies"),
              False: _("not played at all (the online game)")},
}

# The create form's fields for the fixed set values (rules.fixed_values).
FIXED_VALUE_LABELS = {
    "infantry": _("Three infantry"), "cavalry": _("Three cavalry"),
    "artillery": _("Three artillery"), "mixed": _("One of each"),
}

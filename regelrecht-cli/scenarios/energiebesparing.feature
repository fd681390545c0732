@tier:core
Feature: Energiebesparingsplicht (Bal 5.15–5.15b), de ingebouwde wet
  Scenario's in de taal van RegelRecht (bdd/grammar.yaml) voor de wet die regelrecht-cli
  zelf meelevert; `regelrecht-cli scenario --ingebouwd` draait ze zonder corpus.

  Background:
    Given the calculation date is "2026-01-01"
    Given law "besluit_activiteiten_leefomgeving" is loaded
    Given the following parameters:
      | aardgasverbruik_m3                       | 1000  |
      | betreft_gebruiksfunctie_bbl              | false |
      | alleen_hernieuwbare_energie_op_locatie   | false |
      | is_activiteit_artikel_3_3a_lid_1_onder_a | false |
      | is_activiteit_artikel_3_3a_lid_1_onder_b | false |

  Scenario: Vanaf 50.000 kWh geldt de informatieplicht
    Given parameter "elektriciteitsverbruik_kwh" is 60000
    When I evaluate "heeft_informatieplicht" of "besluit_activiteiten_leefomgeving"
    Then the execution succeeds
    Then output "heeft_informatieplicht" is true

  Scenario: Onder 50.000 kWh en 25.000 m3 geldt geen informatieplicht
    Given parameter "elektriciteitsverbruik_kwh" is 20000
    When I evaluate "heeft_informatieplicht" of "besluit_activiteiten_leefomgeving"
    Then output "heeft_informatieplicht" is false

  Scenario: Een onbekende uitvoer faalt met de naam van de uitvoer
    When I evaluate "bestaat_niet" of "besluit_activiteiten_leefomgeving"
    Then the execution fails with "bestaat_niet"

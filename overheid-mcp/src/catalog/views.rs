//! The bridge's own resources: views a host can show or attach without a tool call, each read
//! by running one read-only tool of the family with the URI's variables as its arguments
//! (as a discovery resource is, RES-5).
//!
//! - about the session's own company (private: read only with an identity, `cacheScope:
//!   private`, `ttlMs: 0`): its basisprofiel, its proposals and its filed reports, one by one
//!   as templates;
//! - public: the scheme catalogue and the built-in laws, one by one as templates.
//!
//! The company is never a URI variable: it comes from the session like every session-bound
//! argument. A view is offered only when the CLI that serves it is loaded.

use serde_json::json;

use crate::catalog::Catalog;

/// One view: its URI (a level-1 template; without variables a plain resource), what the host
/// shows, and the tool that reads it.
struct View {
    uri: &'static str,
    name: &'static str,
    title: &'static str,
    description: &'static str,
    program: &'static str,
    tool: &'static str,
    /// About the session's own company.
    private: bool,
}

const VIEWS: &[View] = &[
    View {
        uri: "kvk://mijn/basisprofiel",
        name: "mijn-bedrijf",
        title: "Mijn bedrijf (basisprofiel)",
        description: "Het basisprofiel uit het Handelsregister van het bedrijf van de sessie: naam, \
                      KvK-nummer, rechtsvorm, activiteiten (SBI) en hoofdvestiging.",
        program: "kvk-cli",
        tool: "basisprofiel_toon",
        private: true,
    },
    View {
        uri: "rvo://mijn/voorstellen",
        name: "mijn-voorstellen",
        title: "Mijn voorstellen",
        description: "De voorstellen (rapportages die op goedkeuring door een persoon wachten, \
                      goedgekeurd, afgewezen, verlopen of ingediend) van het bedrijf van de sessie.",
        program: "rvo-cli",
        tool: "voorstel_lijst",
        private: true,
    },
    View {
        uri: "rvo://mijn/voorstellen/{id}",
        name: "mijn-voorstel",
        title: "Eén voorstel",
        description: "Eén voorstel van het bedrijf van de sessie, met zijn status en plan.",
        program: "rvo-cli",
        tool: "voorstel_toon",
        private: true,
    },
    View {
        uri: "rvo://mijn/rapportages",
        name: "mijn-rapportages",
        title: "Mijn ingediende rapportages",
        description: "De rapportages die het bedrijf van de sessie bij RVO heeft ingediend, met \
                      referentienummer en status.",
        program: "rvo-cli",
        tool: "rapportage_lijst",
        private: true,
    },
    View {
        uri: "rvo://mijn/rapportages/{referentienummer}",
        name: "mijn-rapportage",
        title: "Status van een rapportage",
        description: "De status van één ingediende rapportage, op referentienummer.",
        program: "rvo-cli",
        tool: "rapportage_status",
        private: true,
    },
    View {
        uri: "rvo://regelingen",
        name: "regelingen",
        title: "Regelingencatalogus van RVO",
        description: "Alle regelingen (subsidies en verplichtingen), elk met id, naam, soort, \
                      status, openstelling en deadline; alles van één: rvo://regelingen/{regeling_id}.",
        program: "rvo-cli",
        tool: "regeling_lijst",
        private: false,
    },
    View {
        uri: "rvo://regelingen/{regeling_id}",
        name: "regeling",
        title: "Eén regeling van RVO",
        description: "Eén regeling uit de catalogus van RVO, op id (bijv. EBR-2027).",
        program: "rvo-cli",
        tool: "regeling_toon",
        private: false,
    },
    View {
        uri: "regelrecht://wetten",
        name: "wetten",
        title: "Ingebouwde wetten",
        description: "De wetten die regelrecht kan uitvoeren: law_id, naam, BWB-id, geldigheid en \
                      de uitvoer die ze berekenen.",
        program: "regelrecht-cli",
        tool: "wet_lijst",
        private: false,
    },
    View {
        uri: "regelrecht://wetten/{law_id}",
        name: "wet",
        title: "Eén ingebouwde wet",
        description: "Eén wet die regelrecht kan uitvoeren, met parameters, invoer, uitvoer en \
                      artikelen, zoals die vandaag geldt.",
        program: "regelrecht-cli",
        tool: "wet_toon",
        private: false,
    },
];

/// Add every view whose tool is loaded; the warnings name views that do not fit their tool.
pub(crate) fn add(catalog: &mut Catalog) -> Vec<String> {
    let mut warnings = Vec::new();
    for view in VIEWS {
        let Some(tool) = catalog.find(view.program, view.tool) else {
            continue;
        };
        let resource = json!({
            "uriTemplate": view.uri,
            "name": view.name,
            "title": view.title,
            "description": view.description,
            "mimeType": "application/json",
            "_meta": {"tool": view.tool},
        });
        if let Err(why) = catalog.add_view(&resource, tool, view.private) {
            warnings.push(format!("resource {} overgeslagen: {why}", view.uri));
        }
    }
    warnings
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::template::UriTemplate;

    #[test]
    fn every_view_is_a_level_one_template_without_the_company() {
        for view in VIEWS {
            let template = UriTemplate::parse(view.uri).unwrap();
            assert!(
                !template.variables().contains(&"kvk_nummer"),
                "{}: the company comes from the session",
                view.uri
            );
            assert_eq!(view.private, view.uri.contains("://mijn/"), "{}", view.uri);
        }
    }
}

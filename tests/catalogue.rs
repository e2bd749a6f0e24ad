use std::path::Path;
use framecheck::catalogue::*;
use framecheck::profile::TargetProfile;

#[test]
fn real_catalogue_loads_with_zero_errors() {
    let outcome = load_dir(Path::new("attacks"));
    let errors: Vec<String> = outcome.errors.iter().map(ToString::to_string).collect();
    assert!(errors.is_empty(), "{}", errors.join("\n"));
    let cases = instantiate(&outcome.catalogue, &TargetProfile::reference());
    eprintln!("written {} concrete {}", outcome.catalogue.cases.len(), cases.len());
}

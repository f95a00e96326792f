//! The breed lists' answer (journey.md §7 `getbreedlist`): every active breed of every species,
//! from the same files the server's rules read, made and compressed once per definitions version.

use std::sync::Arc;

use engine::definitions::{Breed, Species};

use crate::service::error::AppError;
use crate::service::state::{AppState, Encoded};

fn active(list: Option<&Vec<Breed>>) -> Vec<&Breed> {
    list.into_iter().flatten().filter(|b| b.active).collect()
}

/// The lists as the view data names them: `dog_breed_data` with breedData, crossbreedData and
/// mongrelData; `cat_breed_data` and `rabbit_breed_data` as lists.
#[derive(serde::Serialize)]
struct BreedLists<'a> {
    dog_breed_data: DogBreeds<'a>,
    cat_breed_data: Vec<&'a Breed>,
    rabbit_breed_data: Vec<&'a Breed>,
}

#[derive(serde::Serialize)]
#[allow(non_snake_case)]
struct DogBreeds<'a> {
    breedData: Vec<&'a Breed>,
    crossbreedData: Vec<&'a Breed>,
    mongrelData: Vec<&'a Breed>,
}

#[derive(serde::Serialize)]
struct Answer<'a> {
    data: BreedLists<'a>,
}

/// The breed lists' answer, `{"data": lists}`: made and compressed once per definitions
/// version, then sent as it is by `/api/getbreedlist` and `/quote/definitions/{version}/breeds`.
pub async fn breed_lists_body(state: &AppState) -> Result<Arc<Encoded>, AppError> {
    state
        .made
        .breeds(state.defs.version(), || {
            let dogs = state.defs.breed_file(Species::Dog);
            let cats = state.defs.breed_file(Species::Cat);
            let rabbits = state.defs.breed_file(Species::Rabbit);
            let answer = Answer {
                data: BreedLists {
                    dog_breed_data: DogBreeds {
                        breedData: active(dogs.and_then(|f| f.breed_data.as_ref())),
                        crossbreedData: active(dogs.and_then(|f| f.crossbreed_data.as_ref())),
                        mongrelData: active(dogs.and_then(|f| f.mongrel_data.as_ref())),
                    },
                    cat_breed_data: active(cats.and_then(|f| f.breeds.as_ref())),
                    rabbit_breed_data: active(rabbits.and_then(|f| f.breeds.as_ref())),
                },
            };
            serde_json::to_vec(&answer).map_err(|e| format!("breed lists: {e}"))
        })
        .await
        .map_err(AppError::Internal)
}

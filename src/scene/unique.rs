//! Maps in a scene whose keys must be unique: a figure declared twice in one round, a side
//! given two initiative dice. Serde would silently keep the last; these refuse the second,
//! and the RON reader locates the error.

use serde::de::{Deserialize, Deserializer, Error, MapAccess, Visitor};
use std::collections::BTreeMap;
use std::fmt::{self, Display};
use std::marker::PhantomData;

/// A map that refuses a key given twice.
pub struct Unique<K, V>(pub BTreeMap<K, V>);

impl<'de, K, V> Deserialize<'de> for Unique<K, V>
where
    K: Deserialize<'de> + Ord + Display,
    V: Deserialize<'de>,
{
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V2<K, V>(PhantomData<(K, V)>);
        impl<'de, K, V> Visitor<'de> for V2<K, V>
        where
            K: Deserialize<'de> + Ord + Display,
            V: Deserialize<'de>,
        {
            type Value = Unique<K, V>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a map with each key once")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut a: A) -> Result<Self::Value, A::Error> {
                let mut m = BTreeMap::new();
                while let Some(k) = a.next_key::<K>()? {
                    if m.contains_key(&k) {
                        return Err(A::Error::custom(format!(
                            "'{k}' is given twice in the same map (only one entry each)"
                        )));
                    }
                    let v = a.next_value()?;
                    m.insert(k, v);
                }
                Ok(Unique(m))
            }
        }
        d.deserialize_map(V2(PhantomData))
    }
}

/// `deserialize_with` for a map field.
pub fn map<'de, D, K, V>(d: D) -> Result<BTreeMap<K, V>, D::Error>
where
    D: Deserializer<'de>,
    K: Deserialize<'de> + Ord + Display,
    V: Deserialize<'de>,
{
    Unique::deserialize(d).map(|u| u.0)
}

/// `deserialize_with` for a list of maps.
pub fn maps<'de, D, K, V>(d: D) -> Result<Vec<BTreeMap<K, V>>, D::Error>
where
    D: Deserializer<'de>,
    K: Deserialize<'de> + Ord + Display,
    V: Deserialize<'de>,
{
    Vec::<Unique<K, V>>::deserialize(d).map(|v| v.into_iter().map(|u| u.0).collect())
}

/// `deserialize_with` for a map of maps (the scene's fixed dice, by kind and by figure):
/// neither a kind nor a figure within it may be given twice.
pub fn nested<'de, D, K, J, V>(d: D) -> Result<BTreeMap<K, BTreeMap<J, V>>, D::Error>
where
    D: Deserializer<'de>,
    K: Deserialize<'de> + Ord + Display,
    J: Deserialize<'de> + Ord + Display,
    V: Deserialize<'de>,
{
    Unique::<K, Unique<J, V>>::deserialize(d)
        .map(|u| u.0.into_iter().map(|(k, v)| (k, v.0)).collect())
}

package dev.memoir.session.store;

import jakarta.persistence.Converter;

import dev.memoir.common.wire.WireNameAttributeConverter;
import dev.memoir.memory.api.TurnOrigin;

@Converter(autoApply = true)
class TurnOriginConverter extends WireNameAttributeConverter<TurnOrigin> {

    TurnOriginConverter() {
        super(TurnOrigin.class);
    }
}
